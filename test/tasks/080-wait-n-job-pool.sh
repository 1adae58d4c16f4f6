# A job pool: at most two workers at a time with wait -n, results gathered in order afterwards.
job() { sleep "0.$(( $1 % 3 + 1 ))"; echo "result $1" > "r$1.txt"; }
running=0
for i in 1 2 3 4 5 6; do
  job "$i" &
  running=$((running + 1))
  if [ "$running" -ge 2 ]; then wait -n; running=$((running - 1)); fi
done
wait
cat r{1..6}.txt
ls r*.txt | wc -l
