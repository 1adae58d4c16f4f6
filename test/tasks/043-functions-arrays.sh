# Functions, local variables, indexed and associative arrays, as a helper library would use.
declare -A stock=([apple]=3 [pear]=0 [fig]=12)
restock() { local item=$1 n=$2; stock[$item]=$(( ${stock[$item]:-0} + n )); }
restock pear 5
restock kiwi 2
for k in $(printf '%s\n' "${!stock[@]}" | sort); do echo "$k=${stock[$k]}"; done
arr=(zeta alpha "mid dle" beta)
echo "${#arr[@]} ${arr[2]} ${arr[@]:1:2}"
IFS=$'\n' sorted=($(printf '%s\n' "${arr[@]}" | sort)); unset IFS
printf '<%s>\n' "${sorted[@]}"
sum() { local t=0; for x in "$@"; do t=$((t + x)); done; echo $t; }
echo "sum $(sum 1 2 3 4)"
fact() { (( $1 <= 1 )) && echo 1 || echo $(( $1 * $(fact $(( $1 - 1 ))) )); }
fact 10
