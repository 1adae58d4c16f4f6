# Process substitution and command substitution in comparisons and loops.
diff <(seq 1 5) <(seq 1 5 | sed 's/3/three/')
echo "diff status: $?"
while read -r n; do total=$((total + n)); done < <(seq 1 100)
echo "total $total"
paste <(printf 'a\nb\n') <(printf '1\n2\n')
count=$(ls /nonexistent 2>/dev/null | wc -l); echo "count $count"
nested=$(echo "outer $(echo "inner $(echo deepest)")"); echo "$nested"
wc -l < <(printf 'x\ny\n')
