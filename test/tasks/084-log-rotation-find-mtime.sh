# Log rotation: compress logs older than a week, delete compressed ones older than a month (fixed past dates).
mkdir logs
for d in 2020-01-01 2020-02-01 2020-03-01; do echo "log of $d" > "logs/app-$d.log"; touch -d "$d" "logs/app-$d.log"; done
echo "today" > logs/app.log
touch -d '2020-01-01' logs/old.log.gz
find logs -name '*.log' -mtime +7 | sort | while read -r f; do gzip -n "$f"; done
find logs -name '*.gz' -newer logs/old.log.gz | sort
find logs -name 'old.log.gz' -mtime +30 -delete
ls logs
zcat logs/app-2020-02-01.log.gz
find logs -type f -mtime -1 | sort
