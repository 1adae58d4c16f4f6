# xargs: batching, replacement, parallel workers with sorted output, and exit statuses.
seq 1 10 | xargs -n 3 echo
printf '%s\n' a b c | xargs -I{} sh -c 'echo "item {}" > "{}.txt"'
ls *.txt
seq 1 6 | xargs -P 3 -I{} sh -c 'echo $(( {} * {} ))' | sort -n | tr '\n' ' '; echo
echo 1 2 | xargs sh -c 'exit 1'; echo "xargs status: $?"
printf 'x\0y z\0' | xargs -0 -n1 printf '[%s]\n'
