# Loops and arithmetic of the kind scripts use for retries and counters.
attempt=0
until (( attempt >= 3 )); do attempt=$((attempt + 1)); echo "try $attempt"; done
for ((i = 0, j = 10; i < j; i += 3, j -= 2)); do printf '%d,%d ' $i $j; done; echo
n=0; while :; do n=$((n + 1)); [ $n -eq 2 ] && continue; [ $n -ge 5 ] && break; echo "n=$n"; done
let "a = 5 * 4" "b = a / 3"; echo "$a $b"
(( c = 2 ** 10, c > 1000 )) && echo "big $c"
echo $(( (3 + 4) * 2 )) $(( 10 > 3 ? 1 : 0 )) $(( 1 << 8 )) $(( ~0 )) $(( 7 & 3 | 8 ))
i=5; echo $(( i++ )) $i $(( --i ))
