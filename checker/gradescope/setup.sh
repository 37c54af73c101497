#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image
# (Ubuntu; /autograder/source holds the zip's files, see docs/grading.md,
# "Gradescope"). It installs what grading needs: make and a C compiler for
# the submissions, valgrind for the deduction, bubblewrap and prlimit for
# the sandbox (run_autograder falls back to --no-sandbox, saying so in the
# results, when the container does not let bubblewrap start), and checks
# that the prebuilt homework-grade of the zip runs on this image.
set -euo pipefail
source_dir=$(cd "$(dirname "$0")" && pwd)
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends make gcc libc6-dev valgrind bubblewrap util-linux >/dev/null
chmod +x "$source_dir/homework-grade" "$source_dir/run_autograder"
if ! "$source_dir/homework-grade" --version; then
  echo "setup.sh: the zip's homework-grade does not run on this image (built against a newer C" >&2
  echo "library?): build the zip on a machine with this image's glibc or older (make gradescope-zip)" >&2
  ldd "$source_dir/homework-grade" >&2 || true
  exit 1
fi
if bwrap --unshare-all --unshare-user --disable-userns --ro-bind / / true 2>/dev/null; then
  echo "setup.sh: the bubblewrap sandbox starts here"
else
  echo "setup.sh: the bubblewrap sandbox cannot start in this container: run_autograder grades with --no-sandbox and says so"
fi
