# Sourced by the benchmark scripts (from the repository's root): with BUSY=1, one core is
# kept busy by a spinning process until the script exits, as another job on a shared machine
# would.
if [ "${BUSY:-0}" = 1 ]; then
  python3 -c 'while True: pass' &
  trap 'kill $!' EXIT
fi
