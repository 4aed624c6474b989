# tablecam — build, test and demo. `make demo` and `make test` are all a new
# machine with Go and gcc needs: `deps` installs the Debian packages first.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

GO ?= go

# Debian packages tablecam needs to build and run.
APT_PKGS ?= pkg-config libopencv-dev libopencv-contrib-dev espeak-ng
# Debian packages only the tests need (the dashboard browser test drives chromium).
TEST_PKGS ?= chromium

# Fuzz targets `make test` runs briefly, as package:FuzzName:budget (package
# relative to the repository root). Budgets are execution counts (about 10 s
# each on two cores), not durations: a duration -fuzztime can fail with a
# bare "context deadline exceeded" at its end on a busy machine (a race in
# Go's fuzz coordinator, golang/go#75804, fixed in Go 1.27).
FUZZ_TARGETS ?= config:FuzzConfig:40000x models:FuzzContentOverride:2500x tracker:FuzzParseLine:70000x tracker:FuzzSubmit:3000x
# Extra flags for the fuzz runs, e.g. FUZZFLAGS='-fuzzminimizetime 10x'.
FUZZFLAGS ?= -fuzzminimizetime 10x

# Packages whose `matprofile`-tagged tests prove that no gocv Mat leaks.
MATPROFILE_PKGS ?= ./frame/ ./vision/... ./perf/

# What `make demo` runs after building.
DEMO_CMD ?= ./bin/tablecam play --demo

# Real photos for vision/card/real_test.go beyond gocv's (which are always in
# the module cache): OpenCV's ArUco tutorial photos and its stereo calibration
# photos (a chessboard held up in an office) from Debian's opencv-doc. That
# package is a 96 MB download, so `make test` does without it (those tests
# skip); `make eval-real` fetches it once, keeps only these photos (about
# 1.3 MB) in OPENCV_DOC_DIR and runs the real-photo tests verbosely.
OPENCV_DOC_DIR ?= .cache/opencv-doc
OPENCV_DOC_PHOTOS ?= $(addprefix opencv4/html/,singlemarkersoriginal.jpg screen_charuco.jpg diamondmarkers.png) \
	$(foreach n,01 02 03 04 05 06 07 08 09 11 12 13 14,examples/data/left$(n).jpg) \
	$(foreach n,04 05 06 07 08 09 11 12 13 14,examples/data/right$(n).jpg)

# Debian packages model training needs (make train).
TRAIN_PKGS ?= python3-torch python3-torchvision python3-onnx python3-opencv python3-numpy
# Where training keeps its checkpoints (outside the repository: a stopped
# run resumes from them), and the real labelled photos it learns from.
TRAIN_WORK ?= $(HOME)/.cache/tablecam-train
REAL_DICE ?= ../shared/data/dice-real
PYTHON ?= /usr/bin/python3

.PHONY: deps train-deps build test demo bench eval eval-real train eval-dice-real eval-dice-rendered eval-dice-taught eval-game-pieces

# Install the missing Debian packages (apt-get update only when something is missing).
deps:
	@missing=""; \
	for p in $(APT_PKGS) $(TEST_PKGS); do \
	  if ! dpkg -s "$$p" 2>/dev/null | grep -q '^Status: install ok installed'; then missing="$$missing $$p"; fi; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	echo "deps: installing$$missing"; \
	if [ "$$(id -u)" -eq 0 ]; then sudo=""; \
	elif command -v sudo >/dev/null 2>&1; then sudo="sudo"; \
	else echo "deps: need root (or sudo) to install:$$missing" >&2; exit 1; fi; \
	$$sudo apt-get update; \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing

train-deps:
	@$(MAKE) --no-print-directory deps APT_PKGS="$(TRAIN_PKGS)" TEST_PKGS=

build: deps
	$(GO) build -buildvcs=auto -o bin/tablecam ./cmd/tablecam

# gofmt, vet, all tests, then brief fuzz runs.
test: deps
	@echo "== gofmt"; \
	unformatted="$$(gofmt -l .)"; \
	if [ -n "$$unformatted" ]; then echo "gofmt needed on:"; echo "$$unformatted"; echo "make test: FAILED (gofmt)"; exit 1; fi
	@echo "== go vet"; $(GO) vet ./... || { echo "make test: FAILED (go vet)"; exit 1; }
	@echo "== go test"; $(GO) test -count=1 -timeout 15m ./... || { echo "make test: FAILED (go test)"; exit 1; }
	@echo "== go test -tags purego (the portable dot-product kernel)"; $(GO) test -count=1 -tags purego ./vision/internal/fdot || { echo "make test: FAILED (purego)"; exit 1; }
	@echo "== go test -tags matprofile (no Mat leaks)"; $(GO) test -count=1 -timeout 15m -tags matprofile -run 'NoMatLeak|NoLeak' $(MATPROFILE_PKGS) || { echo "make test: FAILED (Mat leak tests)"; exit 1; }
	@for t in $(FUZZ_TARGETS); do \
	  pkg="$${t%%:*}"; rest="$${t#*:}"; name="$${rest%%:*}"; budget="$${rest#*:}"; \
	  case "$$pkg" in ./*) ;; *) pkg="./$$pkg";; esac; \
	  echo "== fuzz $$pkg $$name ($$budget)"; \
	  $(GO) test "$$pkg" -run '^$$' -fuzz "^$$name\$$" -fuzztime "$$budget" $(FUZZFLAGS) || { echo "make test: FAILED (fuzz $$pkg $$name)"; exit 1; }; \
	done
	@echo "make test: PASSED (gofmt, go vet, go test, Mat leak tests, fuzz: $(FUZZ_TARGETS))"

demo: build
	$(DEMO_CMD)

bench: deps
	$(GO) test -run '^$$' -bench . -benchtime 200x ./...

# The long measurements, none of them part of make test: the dice reader on
# real photos and on held-out renders, cards and stickers on real photos.
eval: eval-dice-real eval-dice-rendered eval-dice-taught eval-real eval-game-pieces

# Card and sticker reading on real photographs (tables with -v).
eval-real: deps
	@missing=""; for f in $(notdir $(OPENCV_DOC_PHOTOS)); do [ -f "$(OPENCV_DOC_DIR)/$$f" ] || missing=1; done; \
	if [ -n "$$missing" ]; then \
	  tmp="$$(mktemp -d)"; chmod 755 "$$tmp"; trap 'rm -rf "$$tmp"' EXIT; \
	  echo "eval-real: fetching Debian's opencv-doc (96 MB) for $(words $(OPENCV_DOC_PHOTOS)) photos"; \
	  (cd "$$tmp" && { apt-get download opencv-doc || { apt-get update && apt-get download opencv-doc; }; }); \
	  dpkg-deb --fsys-tarfile "$$tmp"/opencv-doc_*.deb | tar -x -C "$$tmp" $(addprefix ./usr/share/doc/opencv-doc/,$(OPENCV_DOC_PHOTOS)); \
	  mkdir -p "$(OPENCV_DOC_DIR)"; cp $(addprefix "$$tmp"/usr/share/doc/opencv-doc/,$(OPENCV_DOC_PHOTOS)) "$(OPENCV_DOC_DIR)/"; \
	fi
	$(GO) test -count=1 -run 'TestCardsReal' -v ./vision/card/ -args -eval-real -opencv-doc "$(abspath $(OPENCV_DOC_DIR))"

# Train the dice reader's models from scratch on this machine's CPU and
# write them to vision/dice/models (see vision/dice/models/MODELS.md).
train: train-deps
	$(PYTHON) train/train_finder.py --data $(REAL_DICE) --work $(TRAIN_WORK)/finder --out vision/dice/models --epochs 12 --threads 1 --seed 1 --max-die 160
	$(PYTHON) train/train_faces.py --data $(REAL_DICE) --work $(TRAIN_WORK)/faces --out vision/dice/models --epochs 10 --threads 1 --seed 1 --art-every 0 --neg 0.25 --invert 0.15 --synth 0.2
	cd vision/dice/models && sha256sum finder.onnx faces.onnx > SHA256SUMS

# The dice reader on the real photos it never trained on, per rig.
eval-dice-real: deps
	$(GO) test -count=1 -run TestEvalReal -v ./vision/dice -args -real-data $(abspath $(REAL_DICE))

# The dice reader on rendered scenes of the renderer's held-out seeds, per
# condition (the worn style is never trained on).
eval-dice-rendered: deps
	$(GO) test -count=1 -run TestEvalRendered -v ./vision/dice -args -rendered 300

# This War of Mine's combat dice and Wasteland Warfare's luck token, each
# taught from five rendered pictures per face, per condition (make test runs
# the short version).
eval-game-pieces: deps
	$(GO) test -count=1 -run 'TestGamePiecesAccuracy$$' -v -timeout 60m ./vision/ -args -eval-scenes 100 -eval-ref yes

# Dice in the renderer's held-out worn style, each set taught from five
# pictures per face, per set and condition.
eval-dice-taught: deps
	$(GO) test -count=1 -run TestEvalTaught -v ./vision/dice -args -taught 100
