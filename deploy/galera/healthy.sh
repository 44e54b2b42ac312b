#!/bin/bash
# A Galera node is healthy when it is synced with a primary component, ready for clients: not when
# its port merely answers (a node that lost its quorum still accepts connections, and refuses every
# query with WSREP_NOT_READY).
set -euo pipefail
status=$(mariadb --host=127.0.0.1 --user=root --password="${MYSQL_ROOT_PASSWORD}" --batch --skip-column-names \
  --execute="SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_local_state_comment', 'wsrep_cluster_status', 'wsrep_ready')")
grep -qx $'wsrep_local_state_comment\tSynced' <<<"$status"
grep -qx $'wsrep_cluster_status\tPrimary' <<<"$status"
grep -qx $'wsrep_ready\tON' <<<"$status"
