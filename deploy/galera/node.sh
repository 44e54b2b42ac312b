#!/bin/bash
# The entrypoint of a Galera node (docker-compose.cluster.yml): writes the node's Galera settings,
# decides whether it starts a new cluster or joins the others, then hands over to the image's own
# entrypoint (the official mariadb image's, or the stand-in's), which initialises the data folder on
# a first start with Galera off and then runs the server.
#
# A node bootstraps only when GALERA_BOOTSTRAP=true and its data folder is empty: the very first
# start of the first node. Every later start joins (IST or SST from a peer), so a node killed and
# started again rejoins instead of founding a second cluster. When every node is down at once, no
# node bootstraps by itself: the operator names the one to (GALERA_NEW_CLUSTER;
# docs/DEPLOYING.md, "Beyond one database").
set -euo pipefail

# A file, not arguments: the SST credentials stay out of the process list.
config=/etc/mysql/conf.d/zz-galera.cnf
cat >"$config" <<CNF
[mariadbd]
wsrep_on = ON
wsrep_provider = /usr/lib/galera/libgalera_smm.so
wsrep_cluster_name = ${GALERA_CLUSTER_NAME:-petstore}
wsrep_cluster_address = gcomm://${GALERA_NODES:?GALERA_NODES names the nodes, comma-separated}
wsrep_node_name = ${GALERA_NODE_NAME:?GALERA_NODE_NAME names this node}
wsrep_sst_method = mariabackup
wsrep_sst_auth = root:${MYSQL_ROOT_PASSWORD:?MYSQL_ROOT_PASSWORD is what state transfers log in with}
# A peer that has gone silent for 3 s is suspected and, once every live node suspects it, left out
# of the cluster (Galera's default is 5 s): writes wait for that, so it bounds how long a dead node
# holds them up, and a node left alone learns it has lost its quorum. Peers here share a network;
# across data centres, keep the default.
wsrep_provider_options = "evs.suspect_timeout=PT3S"
# Galera replicates the row events of InnoDB tables, and needs interleaved auto-increment locks.
binlog_format = ROW
default_storage_engine = InnoDB
innodb_autoinc_lock_mode = 2
# A commit is safe once the cluster has it (a node that dies loses nothing its peers applied); the
# local log is written at each commit and flushed once a second.
innodb_flush_log_at_trx_commit = 2
character_set_server = utf8mb4
collation_server = utf8mb4_unicode_ci
CNF
chown mysql:mysql "$config"
chmod 600 "$config"

if [ "${GALERA_BOOTSTRAP:-false}" = true ] && [ ! -d /var/lib/mysql/mysql ]; then
  echo "galera: ${GALERA_NODE_NAME}: an empty data folder, so this node starts the cluster"
  set -- --wsrep-new-cluster "$@"
elif [ "${GALERA_NEW_CLUSTER:-}" = "${GALERA_NODE_NAME}" ]; then
  # The operator's step after every node went down at once (docs/DEPLOYING.md, "Beyond one database"): this
  # node, the one with the latest commit, starts the cluster again from its data.
  echo "galera: ${GALERA_NODE_NAME}: GALERA_NEW_CLUSTER names this node, so it starts the cluster again from its data"
  if [ -f /var/lib/mysql/grastate.dat ]; then sed -i 's/^safe_to_bootstrap: 0$/safe_to_bootstrap: 1/' /var/lib/mysql/grastate.dat; fi
  set -- --wsrep-new-cluster "$@"
else
  echo "galera: ${GALERA_NODE_NAME}: joining ${GALERA_NODES}"
fi
exec docker-entrypoint.sh mariadbd "$@"
