#!/bin/sh
# The balancer's entry (compose.yaml): nginx with the instances' current addresses.
# nginx before 1.27.3 resolves the names of an upstream once, when it starts: an instance
# recreated with a new address (an upgrade) would never be reached again, and one that is
# stopped when nginx starts would stop nginx. So this script resolves the names itself,
# every 2 s, writes their addresses as the upstream's servers and reloads nginx when they
# change. Requests never wait for a name lookup (a stalled DNS server delays only the next
# refresh).
# BALANCER_INSTANCES: the instances' names (default "app1 app2"), port 3000.
set -u
instances=${BALANCER_INSTANCES:-app1 app2}
upstream=/etc/nginx/licensing-upstream.conf

# The upstream's servers: each address of each instance. A name that does not resolve
# now (the instance is stopped, or the DNS server stalls) keeps its last addresses: nginx
# skips them as any unreachable server (max_fails), and no reload is needed, which would
# close the clients' idle keep-alive connections (a request sent on one at that moment
# fails). A reload happens only when an instance appears at a new address.
render() {
  for name in $instances; do
    servers=$(getent ahostsv4 "$name" | awk -v name="$name" '!seen[$1]++ { print "    server " $1 ":3000 max_fails=1 fail_timeout=10s; # " name }')
    [ -n "$servers" ] || servers=$(grep " # $name\$" "$upstream" 2>/dev/null)
    [ -z "$servers" ] || printf '%s\n' "$servers"
  done
}

# At the start, with no instance resolving yet: a closed port (nginx answers 502 until
# the next refresh finds one).
first=$(render)
printf '%s\n' "${first:-    server 127.0.0.1:9 down; # none resolved yet}" >"$upstream"
nginx -g 'daemon off;' &
nginx_pid=$!
# docker stop sends SIGQUIT (the nginx image's stop signal) or SIGTERM: nginx finishes
# requests in flight and exits, and so does this script.
stopping=""
trap 'stopping=1; kill -QUIT "$nginx_pid" 2>/dev/null' QUIT TERM INT

while kill -0 "$nginx_pid" 2>/dev/null; do
  sleep 2 &
  wait $! 2>/dev/null
  kill -0 "$nginx_pid" 2>/dev/null || break
  next=$(render)
  if [ -n "$next" ] && [ "$next" != "$(cat "$upstream")" ]; then
    printf '%s\n' "$next" >"$upstream"
    echo "balancer: instances now at $(printf '%s\n' "$next" | awk '{ printf "%s ", $2 }')" >&2
    kill -HUP "$nginx_pid"
  fi
done
wait "$nginx_pid" 2>/dev/null
status=$?
# Asked to stop: nginx has finished (its status may already have been collected above).
[ -z "$stopping" ] || exit 0
echo "balancer: nginx exited with status $status" >&2
exit "$status"
