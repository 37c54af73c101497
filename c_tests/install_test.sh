#!/bin/sh
# `make install` into a temporary prefix, then, from the installed files
# alone (header, libraries, pkg-config files, share/doc/cardgames):
# - the documentation is there, and every file the installed header and
#   documents name is installed too;
# - the installed examples (the coursework, and War written from the docs)
#   build with pkg-config, linked shared (NEEDED libcardgames.so.0), static
#   (cardgames-static.pc: ldd shows no libcardgames) and fully static, and
#   run: the coursework on checker tests, the War on 1,000 random deals
#   compared with cg_war_step;
# `readelf -d` must show the SONAME; `make uninstall` removes every file.
# Does not run when pkg-config or readelf is missing, saying so (and listed
# at the end of make test: scripts/not-run); fails instead under CI (CI set),
# which installs them.
set -eu
for tool in pkg-config readelf; do
    command -v "$tool" >/dev/null || {
        "$(dirname "$0")/../scripts/not-run" note "$tool" "make install-test"
        exit
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

# The documentation, and no reference in it (or in the header) to a file
# that is not installed. A name resolves relative to the naming file's
# directory, to the documentation directory (a `docs/` prefix stands for it),
# to the prefix or its include directory, or is a system header the compiler finds; `app.c` is the
# reader's own program in the link recipes.
doc="$prefix/share/doc/cardgames"
for f in c-api.md rules/homework.md rules/durak.md rules/ioiwari.md rules/coup.md \
         examples/war.c examples/coursework.c; do
    test -f "$doc/$f" || { echo "install-test: $doc/$f not installed"; exit 1; }
done
checked=0
for file in "$prefix/include/cardgames.h" $(find "$doc" -type f | sort); do
    for ref in $(grep -oE '[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.(md|c|h|rs|sh|py|pc)\b' "$file" | sort -u); do
        checked=$((checked + 1))
        [ "$ref" = app.c ] && continue
        for base in "$(dirname "$file")" "$doc" "$prefix" "$prefix/include"; do
            [ -f "$base/${ref#docs/}" ] && continue 2
        done
        # A system header the compiler finds.
        case $ref in *.h) printf '#include <%s>\n' "$ref" | $cc -E -x c - >/dev/null 2>&1 && continue ;; esac
        echo "install-test: $file names $ref, which is not installed"; exit 1
    done
done
echo "install-test: the header and $(find "$doc" -type f | wc -l) documents name $checked files, all installed"

export PKG_CONFIG_PATH="$lib/pkgconfig"
strict="-std=c99 -Wall -Wextra -Werror -pedantic"
app="$doc/examples/coursework.c"
war="$doc/examples/war.c"
# Shared: found through LD_LIBRARY_PATH (a standard prefix needs nothing).
# shellcheck disable=SC2046,SC2086
$cc $strict "$app" $(pkg-config --cflags --libs cardgames) -o "$tmp/shared"
readelf -d "$tmp/shared" | grep -q 'NEEDED.*\[libcardgames.so.0\]'
# Static, exactly as docs/c-api.md says: no dependency on libcardgames.so.
for prog in app war; do
    eval "src=\$$prog"
    # shellcheck disable=SC2046,SC2086
    $cc $strict "$src" $(pkg-config --cflags --libs cardgames-static) -o "$tmp/static-$prog"
    if ldd "$tmp/static-$prog" | grep -q libcardgames; then
        echo "install-test: $prog linked with cardgames-static needs libcardgames.so"; ldd "$tmp/static-$prog"; exit 1
    fi
done
# Fully static, when the C library's static archive is there (Debian: libc6-dev).
if printf 'int main(void){return 0;}\n' | $cc -static -x c - -o "$tmp/probe" 2>/dev/null; then
    # shellcheck disable=SC2046,SC2086
    $cc $strict -static "$war" $(pkg-config --cflags --libs cardgames-static) -o "$tmp/full-static" 2>"$tmp/link.log" \
        || { cat "$tmp/link.log"; echo "install-test: cc -static failed"; exit 1; }
    if ! ldd "$tmp/full-static" 2>&1 | grep -q 'not a dynamic executable'; then
        echo "install-test: cc -static did not give a static program"; exit 1
    fi
    "$tmp/full-static" 50 5 >/dev/null
    echo "install-test: cc -static with cardgames-static gives a static program"
else
    echo "install-test: NOTE: $cc cannot link -static here (no libc.a): the fully static recipe was not tried"
fi
# The War written from the installed documents, against cg_war_step.
"$tmp/static-war" 1000 11
# shellcheck disable=SC2046,SC2086
$cc $strict "$war" $(pkg-config --cflags --libs cardgames) -o "$tmp/shared-war"
LD_LIBRARY_PATH="$lib" "$tmp/shared-war" 1000 12
cp "$tmp/static-app" "$tmp/static"

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
