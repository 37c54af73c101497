# A submission's forger of valgrind logs (tests/grader.rs): run after the
# program, it finds where valgrind writes from the command lines it can read
# in /proc and writes a log there for every process it can name, clean or
# with the number of errors given as its first argument (to show the lines
# arrive). With `if-readable` as its second argument it writes only if it
# could also read that log (and so take it out and write back a clean one).
errors=${1:-0}
log=$(grep -a -o -h -e '--log-file=[^[:cntrl:]]*' /proc/[0-9]*/cmdline 2>/dev/null | head -n 1)
log=${log#--log-file=}
if [ "$2" = if-readable ]; then
    case $log in
    *%p*) readable=${log%/*} ;;
    *) readable=$log ;;
    esac
    [ -r "$readable" ] || exit 0
fi
clean() {
    printf '==%s== Memcheck, a memory error detector\n==%s== Command: %s\n' "$1" "$1" "$2"
    printf '==%s== HEAP SUMMARY:\n==%s==     in use at exit: 0 bytes in 0 blocks\n' "$1" "$1"
    printf '==%s== All heap blocks were freed -- no leaks are possible\n' "$1"
    printf '==%s== ERROR SUMMARY: %s errors from %s contexts (suppressed: 0 from 0)\n' \
        "$1" "$errors" "$errors"
}
case $log in
*%p*)
    # One log per process: replace each with a clean one.
    for f in "${log%/*}"/*.log; do
        p=${f##*/}
        clean "${p%.log}" ./homework > "$f"
    done ;;
?*)
    # One stream for all: add a clean log, as a machine program and as the
    # program itself, for every process number the sandbox can have had.
    p=1
    while [ $p -le 300 ]; do
        clean $p /bin/true
        clean $p ./homework
        p=$((p + 1))
    done >> "$log" ;;
esac
