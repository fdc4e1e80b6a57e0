# Sourced by the scripts of long runs: with NICE set (e.g. NICE=19), the run yields the
# cores to other work. `nice` alone is not enough where the kernel groups processes by
# session ("autogroup", on by default in Debian): it ranks a process only against its own
# session, so a run started with setsid, nohup from another shell or by a helper still took
# half the cores from the work in front (2026-11-28: 5x5 w4 exact 12.6-14.7 s beside a
# `nice -n 19` run of another session, 6.6-6.9 s once that session's group was set to 19).
# Setting the session's group too makes the niceness count against every other session.
# It is the group of every process of the session the script runs in: start a run meant to
# yield in a session of its own (`setsid nohup scripts/strong_solve.sh DIR &`), not from
# the terminal you work in.
if [ -n "${NICE:-}" ]; then
  renice -n "$NICE" -p $$ >/dev/null
  if [ -w /proc/self/autogroup ]; then echo "$NICE" >/proc/self/autogroup; fi
fi
