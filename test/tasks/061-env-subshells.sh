# Environment and scoping: export to children, prefix assignments, subshell isolation, env -i.
export APP_MODE=prod
LOCAL_ONLY=1
bash -c 'echo "child sees: ${APP_MODE:-unset} ${LOCAL_ONLY:-unset}"'
APP_MODE=test bash -c 'echo "prefixed: $APP_MODE"'
echo "after prefix: $APP_MODE"
( APP_MODE=sub; cd /; echo "in subshell: $APP_MODE $PWD" )
echo "outside: $APP_MODE"
env -i FOO=bar /usr/bin/env | sort
x=1; { x=2; }; echo "group: $x"
echo hi | { read -r y; echo "pipe group: $y"; }
unset APP_MODE; printenv APP_MODE; echo "printenv: $?"
