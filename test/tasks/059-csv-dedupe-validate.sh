# Clean a CSV: trim whitespace, drop duplicates and bad rows, report what was rejected.
cat > raw.csv <<'CSV'
email,age
 ana@example.com ,31
bo@example.com,abc
ana@example.com,31
cy@example.com,
dé@example.com,45
bo@example.com,29
CSV
awk -F, 'NR==1 { print; next }
  { gsub(/^ +| +$/, "", $1) }
  $2 !~ /^[0-9]+$/ { print "reject " NR ": " $0 > "/dev/stderr"; next }
  !seen[$1]++ { print $1 "," $2 }' raw.csv > clean.csv 2> rejects.txt
cat clean.csv
cat rejects.txt
echo "kept $(($(wc -l < clean.csv) - 1)) of $(($(wc -l < raw.csv) - 1))"
sort -t, -k2,2n clean.csv | tail -n +2 | head -1
