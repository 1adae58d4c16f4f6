# Text shaping: nl, fold, fmt-like wrapping, expand, rev, tac, comm, tr classes, base64.
printf 'beta\nalpha\ngamma\nalpha\n' > l1; printf 'alpha\ndelta\ngamma\n' > l2
sort -u l1 > s1; sort -u l2 > s2
comm s1 s2
comm -12 s1 s2
nl -ba l1
tac l1 | head -2
echo 'abcdefghijklmnopqrstuvwxyz' | fold -w 10
printf 'a\tb\n' | expand -t 4 | od -c | head -1
echo 'Hello, World 123' | tr -d '[:digit:]' | tr '[:upper:]' '[:lower:]' | rev
echo 'agentOS ✓' | base64
echo 'YWdlbnRPUyDinJMK' | base64 -d
