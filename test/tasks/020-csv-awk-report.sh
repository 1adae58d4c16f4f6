# CSV with awk: totals per group, averages, a filtered and sorted report.
cat > sales.csv <<'CSV'
region,product,units,price
north,widget,10,2.50
south,gadget,3,10.00
north,gadget,5,10.00
east,widget,7,2.50
south,widget,1,2.50
east,gizmo,2,99.99
CSV
awk -F, 'NR>1 { rev[$1] += $3*$4; units[$1] += $3 } END { for (r in rev) printf "%s %.2f %d\n", r, rev[r], units[r] }' sales.csv | sort
awk -F, 'NR>1 && $3 >= 5 { print $2 }' sales.csv | sort | uniq -c
awk -F, 'NR>1 { s += $4; n++ } END { printf "avg price %.3f over %d rows\n", s/n, n }' sales.csv
tail -n +2 sales.csv | sort -t, -k3,3nr | head -3 | cut -d, -f1,3
