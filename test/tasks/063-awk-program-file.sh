# An awk program kept in a file: functions, arrays of arrays emulated with SUBSEP, printf formatting, -v.
cat > summary.awk <<'AWK'
function pct(part, whole) { return whole ? 100 * part / whole : 0 }
BEGIN { FS = "\t" }
{ cell[$1, $2] += $3; rows[$1]; cols[$2]; total += $3 }
END {
  n = asorti(cols, cs)
  printf "%-6s", ""; for (i = 1; i <= n; i++) printf "%8s", cs[i]; print ""
  m = asorti(rows, rs)
  for (r = 1; r <= m; r++) {
    printf "%-6s", rs[r]
    for (i = 1; i <= n; i++) printf "%8d", cell[rs[r], cs[i]]
    print ""
  }
  printf "%s share of %s: %.1f%%\n", who, total, pct(cell[who, "q1"] + cell[who, "q2"], total)
}
AWK
printf 'ana\tq1\t5\nbo\tq2\t3\nana\tq2\t7\ncy\tq1\t1\nbo\tq1\t4\n' > data.tsv
awk -v who=ana -f summary.awk data.tsv
awk 'BEGIN { printf "%5.2f|%-5s|%05d|%x|%c\n", 3.14159, "ab", 42, 255, 65 }'
awk '{ $2 = toupper($2); print }' OFS=- data.tsv | head -2
