#!/bin/sh
# Writes .env for the compose stack: .env.example with its required secrets
# (POSTGRES_PASSWORD, JWT_SECRET, MASTER_ADMIN_PASSWORD, left out there) set to fresh
# random values.
#   sh deploy/make-env.sh          # from the directory of compose.yaml
# An existing .env is never overwritten. The values are letters and digits only (40 of
# them, about 238 bits): .env takes them as they are, on docker and podman alike.
set -eu
cd "$(dirname "$0")/.."
if [ -e .env ]; then
  echo "make-env: .env exists already; move it away to make a new one" >&2
  exit 1
fi
fresh() { LC_ALL=C tr -dc 'A-Za-z0-9' </dev/urandom | head -c 40; }
umask 077 # the file holds secrets: readable by its owner only
trap 'rm -f .env.tmp' EXIT
while IFS= read -r line || [ -n "$line" ]; do
  case "${line#\#}" in
    POSTGRES_PASSWORD= | JWT_SECRET= | MASTER_ADMIN_PASSWORD=)
      printf '%s%s\n' "${line#\#}" "$(fresh)" ;; # "NAME=" and the value
    *) printf '%s\n' "$line" ;;
  esac
done <.env.example >.env.tmp
mv .env.tmp .env
echo "make-env: wrote .env with fresh secrets; the Master Admin signs in with MASTER_ADMIN_USERNAME / MASTER_ADMIN_PASSWORD from it"
