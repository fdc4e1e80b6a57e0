# Shared start of the benchmark scripts (sourced, not run): from the repository root,
# build the release binary into $bin, read --record into $record, and print the machine
# and version lines every benchmark output starts with.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --release --quiet
bin=target/release/quoridor-solver
record=0
[ "${1:-}" = "--record" ] && record=1
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "version: $($bin --version), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
