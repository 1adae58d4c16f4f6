# git as an agent uses it to review and undo: diff, apply a patch, amend, revert, show.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Ada Lovelace" GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME="Ada Lovelace" GIT_COMMITTER_EMAIL=ada@example.com
export GIT_AUTHOR_DATE="2024-01-02T03:04:05Z" GIT_COMMITTER_DATE="2024-01-02T03:04:05Z"
git init -q -b main repo && cd repo
printf 'def f():\n    return 1\n' > m.py && git add m.py && git commit -q -m "add f"
sed -i 's/return 1/return 2/' m.py
git diff | cat
git diff > ../fix.patch && git checkout -- m.py
git apply ../fix.patch && git diff --stat | cat
git commit -q -am "change f" && git commit -q --amend -m "f returns 2"
git log --format='%h %s' | cat
git revert --no-edit HEAD >/dev/null && cat m.py
git show --format='%s' --name-only HEAD | cat
