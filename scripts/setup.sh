#!/usr/bin/env bash
# Installs what mosaic needs on Debian 12 (bookworm), and nothing more.
#
# Idempotent: a package that is already installed is not touched, apt-get runs
# only when something is missing, and the deb-src entry is written once.
# Run as root (or through sudo when it is there); `make demo` and `make test`
# call it first.
set -euo pipefail

# The toolchain and libraries (docs/ARCHITECTURE.md), all from bookworm main;
# universal-ctags is the Clang-free oracle of the tinyxml2 test; the
# benchmark (bench/run) plots with matplotlib, records autotools builds'
# compile databases with bear and regenerates their configure scripts
# (autopoint for those that use gettext, as libexif's does);
# Slurm (with munge) runs the test of `mosaic project` as a job array, and
# python3-jsonschema checks its SARIF output against the schema.
PACKAGES=(
  build-essential cmake ninja-build pkg-config git dpkg-dev
  clang-19 llvm-19-dev libclang-19-dev libclang-cpp19-dev libclang-rt-19-dev lld-19 llvm-19-tools
  libz3-dev libgit2-dev libffi-dev nlohmann-json3-dev libcli11-dev libfmt-dev libgtest-dev libgmock-dev libjemalloc-dev
  universal-ctags python3 python3-matplotlib bear autoconf automake libtool autopoint
  slurmctld slurmd slurm-client munge python3-jsonschema
)

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else echo "setup: '$*' needs root; run as root or install sudo" >&2; exit 2
  fi
}

# Benchmark subjects are fetched with `apt-get source`, which needs deb-src
# entries. Reuse the Debian mirrors already configured (deb822 .sources files
# or one-line .list files) rather than naming a mirror here.
SRC_FILE=/etc/apt/sources.list.d/mosaic-deb-src.sources
ensure_deb_src() {
  if grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null; then
    return 1   # some deb-src entry already exists (ours or the admin's)
  fi
  local uris
  uris=$( { grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{for (i=2;i<=NF;i++) print $i}';
            grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
              sed -E 's/^deb (\[[^]]*\] )?//' | awk '{print $1}'; } |
          grep -E 'debian(-security)?/?$' | sort -u)
  local main security
  main=$(echo "$uris" | grep -vE 'debian-security/?$' | head -n1)
  security=$(echo "$uris" | grep -E 'debian-security/?$' | head -n1)
  [ -n "$main" ] || main=http://deb.debian.org/debian
  {
    echo "# Written by mosaic's scripts/setup.sh so that 'apt-get source' works."
    echo "Types: deb-src"
    echo "URIs: $main"
    echo "Suites: bookworm bookworm-updates"
    echo "Components: main"
    echo "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
    if [ -n "$security" ]; then
      echo
      echo "Types: deb-src"
      echo "URIs: $security"
      echo "Suites: bookworm-security"
      echo "Components: main"
      echo "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
    fi
  } | as_root tee "$SRC_FILE" >/dev/null
  echo "setup: added deb-src entries in $SRC_FILE"
  return 0
}

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

need_update=0
if ensure_deb_src; then need_update=1; fi
if [ ${#missing[@]} -gt 0 ]; then need_update=1; fi

if [ "$need_update" = 1 ]; then
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "setup: all ${#PACKAGES[@]} packages already installed"
fi

# The SARIF 2.1.0 JSON schema that the test of `mosaic project`'s
# findings.sarif validates against: schemastore's sarif-2.1.0-rtm.5.json as
# the npm package @microsoft/jest-sarif ships it (MIT). Debian packages no
# copy. Without npm the test skips, saying why.
SARIF_SCHEMA=/usr/local/share/mosaic/sarif-2.1.0-rtm.5.json
if [ ! -s "$SARIF_SCHEMA" ] && command -v npm >/dev/null 2>&1; then
  tmp=$(mktemp -d)
  if (cd "$tmp" && timeout 120 npm pack -q @microsoft/jest-sarif@1.0.0-beta.0 >/dev/null 2>&1 &&
      tar xzf microsoft-jest-sarif-1.0.0-beta.0.tgz package/lib/schemas/sarif-2.1.0-rtm.5.json); then
    as_root mkdir -p "$(dirname "$SARIF_SCHEMA")"
    as_root cp "$tmp/package/lib/schemas/sarif-2.1.0-rtm.5.json" "$SARIF_SCHEMA"
    echo "setup: installed the SARIF 2.1.0 schema in $SARIF_SCHEMA"
  else
    echo "setup: note: could not fetch the SARIF schema from npm; its test will skip"
  fi
  rm -rf "$tmp"
fi
