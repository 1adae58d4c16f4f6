# Redirections: stdout and stderr split and merged, tee to several files, append, noclobber, fd 3.
{ echo out1; echo err1 >&2; echo out2; } > o.txt 2> e.txt
cat o.txt e.txt
{ echo a; echo b >&2; } 2>&1 | sort | tee merged.txt | wc -l
echo again | tee -a merged.txt o.txt >/dev/null
cat merged.txt o.txt
set -o noclobber; echo x > o.txt 2>/dev/null || echo "noclobber refused"; echo y >| o.txt; cat o.txt; set +o noclobber
exec 3> fd3.txt; echo "via fd3" >&3; exec 3>&-; cat fd3.txt
ls missing-file 2>&1 >/dev/null | wc -l
