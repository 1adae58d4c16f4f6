# Traps: cleanup on EXIT, ERR reporting, a signal sent to ourselves, and RETURN-free function flow.
tmp=work.tmp
trap 'rm -f "$tmp"; echo "cleaned up"' EXIT
trap 'echo "caught USR1"' USR1
echo data > "$tmp"
kill -USR1 $$
[ -f "$tmp" ] && echo "tmp exists"
( trap 'echo "sub exit"' EXIT; echo "in subshell" )
f() { trap 'echo "err in f at $BASH_COMMAND"' ERR; false; trap - ERR; }
f
echo "end"
