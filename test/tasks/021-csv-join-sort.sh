# Join two CSV-like files on a key with sort and join, then format with column-like printf.
printf 'id,name\n3,carol\n1,alice\n2,bob\n4,dave\n' > users.csv
printf 'id,amount\n1,30\n2,5\n1,12\n3,8\n' > payments.csv
tail -n +2 users.csv | sort -t, -k1,1 > u.sorted
tail -n +2 payments.csv | sort -t, -k1,1 > p.sorted
join -t, u.sorted p.sorted
join -t, -a1 -e NONE -o 0,1.2,2.2 u.sorted p.sorted
join -t, u.sorted p.sorted | awk -F, '{ t[$2] += $3 } END { for (k in t) print k, t[k] }' | sort -k2,2nr
