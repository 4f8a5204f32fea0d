#!/bin/sh
# Starts a throwaway RabbitMQ node (Debian's rabbitmq-server 3.10) for one cell, with its
# Web-STOMP (default) or Web-MQTT plugin on 127.0.0.1:PORT, path /ws:
#   wsbench run pubsub --broker stomp --server-start-timeout 60s \
#     --server-cmd 'rabbit=examples/brokers/rabbitmq.sh {port} stomp' --server-url 'ws://{host}:{port}/ws'
# Everything it writes is in a temporary folder, removed when it stops (a SIGKILL leaves it in $TMPDIR); it listens on loopback
# only (no AMQP listener; Erlang distribution and its own epmd on 127.0.0.1, on free ports),
# and epmd runs in the foreground in this script's process group, so that stopping the group
# stops all of it (an epmd started by RabbitMQ itself would detach and outlive the cell).
# Exits 77 (this server cannot run here: the cell is n/a) when RabbitMQ is not installed.
set -eu
port=${1:?usage: rabbitmq.sh PORT [stomp|mqtt]}
plugin=${2:-stomp}
case $plugin in
  stomp) plugins='[rabbitmq_web_stomp].'; listener='web_stomp' ;;
  mqtt) plugins='[rabbitmq_web_mqtt].'; listener='web_mqtt' ;;
  *) echo "rabbitmq.sh: the plugin is stomp or mqtt, not $plugin" >&2; exit 2 ;;
esac
# The package's own rabbitmq-server, not /usr/sbin's wrapper, which runs it as the rabbitmq user with its logs in /var/log.
server=${RABBITMQ_SERVER:-/usr/lib/rabbitmq/bin/rabbitmq-server}
[ -x "$server" ] || { echo "rabbitmq-server is not installed (Debian: apt-get install rabbitmq-server)" >&2; exit 77; }
command -v epmd >/dev/null 2>&1 || { echo "epmd is not installed (it comes with Erlang: apt-get install erlang-base)" >&2; exit 77; }

# Two free loopback ports: Erlang distribution and epmd.
set -- $(node -e '
const net = require("node:net");
const take = () => new Promise((done) => { const s = net.createServer().listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => done(p)); }); });
Promise.all([take(), take()]).then((ports) => console.log(ports.join(" ")));')
dist_port=${1:?rabbitmq.sh: node (on PATH) picks its free ports}
epmd_port=$2

dir=$(mktemp -d "${TMPDIR:-/tmp}/wsbench-rabbitmq.XXXXXX")
# A throwaway node needs no graceful shutdown, which would go on writing to the folder while it is
# removed (and take longer than the 3 s wsbench gives a server after its SIGTERM): the Erlang VM
# (the server script's child) is killed at once, then the folder goes. A second SIGTERM (wsbench
# sends one to the group and one to each process of the server's cgroup) must not cut the cleanup
# short: it is ignored from here on. `|| :` throughout: under `set -e`, a kill of what is already
# gone would end the cleanup there.
cleanup() {
  trap '' INT TERM
  trap - EXIT
  set +e
  vms=''
  [ -z "${rabbit:-}" ] || vms="$(cat "/proc/$rabbit/task/$rabbit/children" 2>/dev/null || :) $rabbit"
  for vm in $vms; do kill -KILL "$vm" 2>/dev/null || :; done
  [ -z "${epmd_pid:-}" ] || kill "$epmd_pid" 2>/dev/null || :
  # SIGKILLed processes write nothing more; a file created in the same instant makes one rm fail.
  for attempt in 1 2 3 4 5; do
    rm -rf "$dir" 2>/dev/null || :
    [ -e "$dir" ] || break
    sleep 0.1
  done
  return 0
}

trap cleanup EXIT
trap 'cleanup; exit 0' INT TERM

cat >"$dir/rabbitmq.conf" <<CONF
listeners.tcp = none
$listener.tcp.ip = 127.0.0.1
$listener.tcp.port = $port
loopback_users.guest = true
log.console = true
log.console.level = warning
log.file = false
CONF
echo "$plugins" >"$dir/enabled_plugins"
mkdir -p "$dir/home" "$dir/mnesia" "$dir/log"

export HOME="$dir/home" ERL_EPMD_ADDRESS=127.0.0.1 ERL_EPMD_PORT=$epmd_port
export RABBITMQ_NODENAME="wsbench-$port@localhost" RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_DIST_PORT=$dist_port
export RABBITMQ_CONFIG_FILE="$dir/rabbitmq.conf" RABBITMQ_ENABLED_PLUGINS_FILE="$dir/enabled_plugins"
export RABBITMQ_ADVANCED_CONFIG_FILE="$dir/advanced.config" RABBITMQ_CONF_ENV_FILE="$dir/rabbitmq-env.conf"
export RABBITMQ_MNESIA_BASE="$dir/mnesia" RABBITMQ_MNESIA_DIR="$dir/mnesia/db" RABBITMQ_LOG_BASE="$dir/log"
export RABBITMQ_FEATURE_FLAGS_FILE="$dir/mnesia/feature_flags" RABBITMQ_PLUGINS_EXPAND_DIR="$dir/mnesia/plugins"
export RABBITMQ_QUORUM_DIR="$dir/mnesia/quorum" RABBITMQ_STREAM_DIR="$dir/mnesia/stream" RABBITMQ_PID_FILE="$dir/pid"
# Erlang distribution on loopback only.
export RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS='-kernel inet_dist_use_interface {127,0,0,1}'

epmd -port "$epmd_port" -address 127.0.0.1 &
epmd_pid=$!
"$server" &
rabbit=$!
wait "$rabbit"
