# Shared by scripts/run and scripts/test: install what the app's build and tests need when it is
# missing. Source it from the repository root.

wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock
}

ensure_wasm_target() {
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
  fi
}

ensure_trunk() {
  if ! trunk --version 2>/dev/null | grep -q '^trunk 0\.21\.'; then
    # 0.22 needs a newer rustc than ours; this build takes about ten minutes on two cores.
    cargo install --locked trunk --version "~0.21"
  fi
}

ensure_wasm_bindgen() {
  local want
  want=$(wasm_bindgen_version)
  if ! wasm-bindgen --version 2>/dev/null | grep -q " $want\$"; then
    # --locked fails for this version; a plain install works.
    cargo install wasm-bindgen-cli --version "$want"
  fi
}

# npm's binaryen (wasm-opt for Trunk) and playwright-core, pinned in tools/package-lock.json.
ensure_node_tools() {
  if [ ! -x tools/node_modules/.bin/wasm-opt ] || [ ! -d tools/node_modules/playwright-core ] \
    || [ ! -f tools/node_modules/axe-core/axe.min.js ]; then
    (cd tools && npm ci --no-audit --no-fund)
  fi
  export PATH="$PWD/tools/node_modules/.bin:$PATH"
}

# The match referee's Python (scripts/referee.py, scripts/make-books.py): python-chess and
# pyffish (Fairy-Stockfish's rules), pinned, in a virtual environment under target/; and
# py4swiss (MIT, FIDE's Dutch system), the reference `qi swiss check` pairs beside.
ensure_referee() {
  if ! target/referee/bin/python -c 'import chess, pyffish, py4swiss' >/dev/null 2>&1; then
    python3 -m venv target/referee
    target/referee/bin/pip install -q --disable-pip-version-check chess==1.11.2 pyffish==0.0.90 \
      py4swiss==0.3.1
  fi
}

# The reference engines the lab measures Qi's against, from Debian (never shipped): Stockfish
# and Fairy-Stockfish, in /usr/games.
ensure_reference_engines() {
  if [ ! -x /usr/games/stockfish ] || [ ! -x /usr/games/fairy-stockfish ]; then
    apt-get update -qq
    apt-get install -y -qq stockfish fairy-stockfish
  fi
  export PATH="$PATH:/usr/games"
}

ensure_chromium() {
  if [ ! -x /usr/bin/chromium ]; then
    apt-get update -qq
    apt-get install -y -qq chromium chromium-driver
  fi
  if [ ! -x /usr/bin/chromium ]; then
    echo "Chromium is missing and could not be installed: the end-to-end tests cannot run." >&2
    exit 1
  fi
}

# PostgreSQL's server and Redis, from Debian, for the tests of several server nodes (each test
# starts its own on loopback, in a temporary directory: see crates/server/src/services.rs).
ensure_services() {
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! command -v redis-server >/dev/null; then
    apt-get update -qq
    apt-get install -y -qq postgresql redis-server
  fi
  # Debian's packages start their own servers; the tests need none of them.
  if command -v systemctl >/dev/null 2>&1; then
    systemctl disable --now redis-server postgresql >/dev/null 2>&1 || true
  fi
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! command -v redis-server >/dev/null; then
    echo "PostgreSQL or Redis is missing and could not be installed: the cluster tests cannot run." >&2
    exit 1
  fi
}

# The standard library's source: the threaded worker rebuilds it with atomics.
ensure_rust_src() {
  if ! rustup component list --installed | grep -qx rust-src; then
    rustup component add rust-src
  fi
}

ensure_app_tools() {
  ensure_wasm_target
  ensure_rust_src
  ensure_trunk
  ensure_wasm_bindgen
  ensure_node_tools
}

# The app into dist/, then the embed page into dist/embed/, the online page into dist/online/,
# the "watch live" page into dist/tv/ and the puzzle page (with its databases) into
# dist/puzzles/ (Trunk builds one page at a time, and each build empties its own output
# directory, so the app goes first); then the engine's worker (build_worker) and its threaded
# build; then the app's and the puzzle page's wasm each split in two (split_pages_wasm, which
# plays each first screen, the computer's move included, so it comes after the worker); then the service worker that keeps
# the build for offline play
# (scripts/service-worker.mjs), and a brotli and a gzip copy beside each file, which qi-server
# sends to browsers that take them.
build_app() {
  ensure_app_tools
  ensure_rust_src
  page_build trunk build --release
  page_build trunk build embed/index.html --release --dist dist/embed
  page_build trunk build online/index.html --release --dist dist/online
  page_build trunk build tv/index.html --release --dist dist/tv
  page_build trunk build puzzles/index.html --release --dist dist/puzzles
  build_worker dist
  build_worker_threads dist/threads
  split_pages_wasm dist
  node scripts/service-worker.mjs dist
  node scripts/precompress.mjs dist
}

# The app page's and the puzzle page's wasm each in two (scripts/split-wasm.mjs): what the first
# screen runs, in the first download, and the rest, fetched once the board is up. Chromium plays
# the first screen on an instrumented copy to see what it runs, so the build needs it.
split_pages_wasm() {
  ensure_chromium
  cargo build --locked --release -p qi-wasm-split
  node scripts/split-wasm.mjs "$1"
  node scripts/split-wasm.mjs "$1" puzzles
}

# Runs a build of the pages' wasm (the first download: every KB is about 5 ms on a slow phone
# line) with the standard library rebuilt to abort at once on a panic, with no message and no
# source location (-Cpanic=immediate-abort, -Zlocation-detail=none): the pages install no
# panic hook, so a panic's message was never shown anywhere, and its formatting machinery
# and the file names were 18 KB of brotli in the app's download. Stable Rust takes these
# flags under RUSTC_BOOTSTRAP, as the threaded worker's build does. Not for the engine's
# worker, whose panic hook prints the reason in the console.
page_build() {
  RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
    RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none" "$@"
}

# The engine's Web Worker (crates/worker) into $1: built for speed (the wasm-worker profile,
# wasm-opt -O3), with wasm-bindgen's no-modules loader (src/worker.rs loads qi-worker.js).
# Built here rather than by the app's Trunk build, so the pages' build flags stay the pages'.
build_worker() {
  local out="$1" module=target/wasm32-unknown-unknown/wasm-worker/qi-worker.wasm
  RUSTFLAGS="-C target-feature=+simd128" \
    cargo build --locked -p qi-worker --target wasm32-unknown-unknown --profile wasm-worker
  wasm-bindgen --target no-modules --no-typescript --out-dir "$out" "$module"
  wasm-opt -O3 "$out/qi-worker_bg.wasm" -o "$out/qi-worker_bg.wasm"
}

# The engine's worker again, with wasm threads, into $1 (dist/threads): the page loads it where
# it is cross-origin isolated and the player asked for several engine threads (see
# crates/worker/src/threads.rs). Stable Rust's standard library for wasm is built without
# atomics, so this build rebuilds it (-Zbuild-std, allowed on stable by RUSTC_BOOTSTRAP) in a
# target directory of its own; the linker makes the memory shared and imported, and exports
# the thread-local storage symbols wasm-bindgen's thread support needs.
build_worker_threads() {
  local out="$1" module=target/threads/wasm32-unknown-unknown/wasm-worker/qi-worker.wasm
  RUSTC_BOOTSTRAP=1 RUSTFLAGS="-C target-feature=+atomics,+bulk-memory,+mutable-globals,+simd128 \
-C link-arg=--shared-memory -C link-arg=--import-memory -C link-arg=--max-memory=1073741824 \
-C link-arg=--export=__wasm_init_tls -C link-arg=--export=__tls_size \
-C link-arg=--export=__tls_align -C link-arg=--export=__tls_base" \
    cargo build --locked -p qi-worker --target wasm32-unknown-unknown --profile wasm-worker \
    -Zbuild-std=std,panic_abort --target-dir target/threads
  rm -rf "$out"
  mkdir -p "$out"
  wasm-bindgen --target no-modules --no-typescript --out-dir "$out" "$module"
  wasm-opt -O3 --enable-threads --enable-bulk-memory --enable-mutable-globals \
    --enable-sign-ext --enable-nontrapping-float-to-int --enable-reference-types \
    --enable-multivalue --enable-simd "$out/qi-worker_bg.wasm" -o "$out/qi-worker_bg.wasm"
}
