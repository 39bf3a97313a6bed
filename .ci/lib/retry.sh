# Sourced by .ci/steps/*.sh: `retry CMD…` runs CMD up to three times, 10 s then 20 s apart, so a slow
# mirror is not reported as a failure of what the step checks.
retry() {
  for attempt in 1 2 3; do
    "$@" && return 0
    echo "attempt $attempt failed: $*" >&2
    sleep $((attempt * 10))
  done
  return 1
}
