#!/bin/sh
# `make install` into a temporary prefix, then the C coursework program built
# with pkg-config only, linked shared and static, run on a checker test;
# `readelf -d` must show the SONAME; `make uninstall` removes every file.
# Skips (exit 0, with a note) when pkg-config or readelf is missing; fails
# instead under CI (CI set), which installs them.
set -eu
for tool in pkg-config readelf; do
    command -v "$tool" >/dev/null || {
        echo "install-test: $tool not found, skipped"
        [ -z "${CI:-}" ] || exit 1
        exit 0
    }
done
make=${MAKE:-make}
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"

# A staged install (DESTDIR) puts the files under the stage only.
$make --no-print-directory install PREFIX=/usr/local DESTDIR="$tmp/stage" >/dev/null
test -f "$tmp/stage/usr/local/include/cardgames.h"
test -f "$tmp/stage/usr/local/lib/pkgconfig/cardgames.pc"
grep -q '^prefix=/usr/local$' "$tmp/stage/usr/local/lib/pkgconfig/cardgames.pc"

$make --no-print-directory install PREFIX="$prefix" >/dev/null
lib="$prefix/lib"
soname=$(readelf -d "$lib/libcardgames.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
test "$soname" = libcardgames.so.0 || { echo "install-test: SONAME is '$soname'"; exit 1; }
test -L "$lib/libcardgames.so" && test -L "$lib/libcardgames.so.0"

export PKG_CONFIG_PATH="$lib/pkgconfig"
cflags=$(pkg-config --cflags cardgames)
app=c_tests/coursework/homework.c
# Shared: found through LD_LIBRARY_PATH (a standard prefix needs nothing).
# shellcheck disable=SC2046
$cc -std=c99 -Wall -Wextra -Werror -pedantic $cflags "$app" $(pkg-config --libs cardgames) -o "$tmp/shared"
readelf -d "$tmp/shared" | grep -q 'NEEDED.*\[libcardgames.so.0\]'
# Static: the archive, then the private libraries pkg-config lists.
# shellcheck disable=SC2046
$cc -std=c99 -Wall -Wextra -Werror -pedantic $cflags "$app" -Wl,-Bstatic $(pkg-config --libs cardgames) \
    -Wl,-Bdynamic $(pkg-config --static --libs-only-l cardgames | sed 's/-lcardgames//') -o "$tmp/static"
if readelf -d "$tmp/static" | grep -q 'NEEDED.*libcardgames'; then
    echo "install-test: the static program needs libcardgames.so"; exit 1
fi

root=$(pwd)
mkdir "$tmp/run"
for test in razboi3 scarabei2; do
    in=$(find "$root/checker/tests" -name "$test.in")
    cp "$in" "$tmp/run/in"
    (cd "$tmp/run" && LD_LIBRARY_PATH="$lib" "$tmp/shared" && diff -qw out "${in%.in}.ref" >/dev/null)
    rm -f "$tmp/run/out"
    (cd "$tmp/run" && "$tmp/static" && diff -qw out "${in%.in}.ref" >/dev/null)
done

$make --no-print-directory uninstall PREFIX="$prefix" >/dev/null
left=$(find "$prefix" -type f -o -type l)
test -z "$left" || { echo "install-test: left after uninstall: $left"; exit 1; }
echo "install-test: installed, built with pkg-config (shared: SONAME $soname; static), ran, uninstalled"
