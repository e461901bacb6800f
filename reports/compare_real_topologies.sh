#!/usr/bin/env bash
# The comparison's topology families on real processes (--backend redis): a few lock variants under the
# cluster shard failover, cluster slot migration, cluster split-brain and Sentinel split-brain columns, a few
# seeds each, for reading next to the mock's cells in matrix.md (reports/README.md, "Topology families on
# real Redis"). Not a CI stage: real time, about 10 s per run.
# Usage: reports/compare_real_topologies.sh [OUT_DIR] [RUNS]   (from the repository root, after a build)
set -euo pipefail
out="${1:-build/compare-real-topologies}"
runs="${2:-3}"
build/tools/lockcheck compare --backend redis \
  --variants token,fenced,redisson-like,token-wait \
  --faults cluster-failover,slot-migration,split-brain,sentinel-split-brain \
  --runs "$runs" --jobs 1 --out "$out"
echo "matrix: $out/matrix.md"
