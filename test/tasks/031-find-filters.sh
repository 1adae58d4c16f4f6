# find with tests and actions: size, name, type, depth, -print0 with xargs -0.
mkdir -p tree/a/b tree/c "tree/with space"
printf '%0100d' 0 > tree/a/big.bin
echo small > tree/a/b/small.txt
echo x > "tree/with space/file one.txt"
touch tree/c/empty.txt
find tree -type f -size +50c | sort
find tree -type f -empty | sort
find tree -mindepth 2 -maxdepth 2 -type d | sort
find tree -name '*.txt' -print0 | sort -z | xargs -0 -n1 basename
find tree -name '*.txt' -newer tree/a/big.bin -o -name 'none' | wc -l >/dev/null && echo counted
find tree -type d | sort | awk -F/ '{ print NF-1, $0 }'
