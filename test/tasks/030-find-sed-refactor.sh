# Refactor: rename a function across a source tree with find and sed, then verify with grep.
mkdir -p src/util src/app
printf 'def old_name(x):\n    return x\n' > src/util/helpers.py
printf 'from util.helpers import old_name\nprint(old_name(1))\n' > src/app/main.py
printf 'old_name is documented here\n' > src/README.txt
find src -name '*.py' -exec sed -i 's/\bold_name\b/new_name/g' {} +
grep -rn 'old_name' src | sort
grep -rln 'new_name' src | sort
find src -type f -name '*.py' | sort | xargs wc -l
