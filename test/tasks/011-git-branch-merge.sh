# git: a feature branch, a fast-forward and a true merge, then the graph.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Ada Lovelace" GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME="Ada Lovelace" GIT_COMMITTER_EMAIL=ada@example.com
export GIT_AUTHOR_DATE="2024-01-02T03:04:05Z" GIT_COMMITTER_DATE="2024-01-02T03:04:05Z"
git init -q -b main repo && cd repo
seq 1 5 > nums.txt
git add . && git commit -q -m base
git checkout -q -b feature
echo 6 >> nums.txt && git commit -q -am "add six"
git checkout -q main
git merge -q --ff-only feature && git log --oneline | cat
git checkout -q -b other HEAD~1
printf 'notes\n' > notes.txt && git add notes.txt && git commit -q -m "notes"
git checkout -q main
git merge -q --no-edit other
git log --graph --format='%h %s' | cat
git branch --list | cat
ls
