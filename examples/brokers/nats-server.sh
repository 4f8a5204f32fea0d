#!/bin/sh
# Starts nats-server with its WebSocket listener on 127.0.0.1:PORT, for one cell:
#   wsbench run pubsub --broker nats --server-cmd 'nats=examples/brokers/nats-server.sh {port}'
# Exits 77 (this server cannot run here: the cell is n/a) when nats-server is not installed.
port=${1:?usage: nats-server.sh PORT}
command -v nats-server >/dev/null 2>&1 || { echo "nats-server is not installed (Debian: apt-get install nats-server)" >&2; exit 77; }
WSBENCH_PORT=$port exec nats-server -c "$(dirname "$0")/nats.conf"
