# A backup script: timestamped archives by fixed names, rotation keeping the newest three, a restore.
mkdir -p data backups
for d in 01 02 03 04 05; do
  echo "state $d" > data/state.txt
  tar czf "backups/data-2024-01-$d.tar.gz" data
done
ls backups | sort | head -n -3 | while read -r old; do rm "backups/$old"; done
ls backups
rm -rf data
tar xzf "$(ls backups/*.tar.gz | sort | tail -n 1)"
cat data/state.txt
for f in backups/*.tar.gz; do printf '%s: ' "$(basename "$f")"; tar xzf "$f" -O data/state.txt; done
