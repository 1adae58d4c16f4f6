# grep for debugging a log: context lines, counts, only-matching, inverted and word matches, exit codes.
cat > app.log <<'L'
INFO start
DEBUG cfg loaded
WARN disk 91%
INFO request id=7
ERROR timeout id=7
INFO request id=8
ERROR refused id=9
INFO stop
L
grep -n ERROR app.log
grep -B1 -A1 'ERROR timeout' app.log
grep -c -v INFO app.log
grep -oE 'id=[0-9]+' app.log | sort -u | tr '\n' ' '; echo
grep -w 'request' app.log | wc -l
grep -E '^(WARN|ERROR)' app.log | cut -d' ' -f1 | sort | uniq -c
grep -q FATAL app.log; echo "absent: $?"
grep -r ERROR nonexistent 2>/dev/null; echo "missing file: $?"
