#!/usr/bin/env bash
# Install fantan-table as a service on Raspberry Pi OS (bookworm or newer). Run from a clone:
#     sudo systemd/install.sh
# Safe to run again to upgrade: the config in /etc/fantan-table is kept, the venv is refreshed.
set -euo pipefail

PREFIX=/opt/fantan-table
CONFIG_DIR=/etc/fantan-table
SERVICE_USER=fantan
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

fail() { echo "install.sh: $*" >&2; exit 1; }

[[ $EUID -eq 0 ]] || fail "run it as root: sudo $0"
[[ -f "$REPO/pyproject.toml" ]] || fail "run it from a clone of fantan-table (no pyproject.toml in $REPO)"
command -v apt-get >/dev/null || fail "this installer is for Raspberry Pi OS (apt); elsewhere use 'make run'"

echo "== system packages (camera stack, OpenCV and lgpio from apt, as picamera2 needs)"
apt-get update -q
apt-get install -y -q python3-venv python3-pip python3-picamera2 python3-opencv python3-numpy \
    python3-lgpio python3-pil i2c-tools

if command -v raspi-config >/dev/null; then
    echo "== enabling I2C for the display"
    raspi-config nonint do_i2c 0
fi

echo "== service user '$SERVICE_USER' (groups gpio, video, i2c)"
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/fantan-table --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in gpio video i2c; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
usermod -a -G gpio,video,i2c "$SERVICE_USER"

echo "== program in $PREFIX (a venv that sees apt's picamera2 and OpenCV)"
install -d -m 755 "$PREFIX"
install -m 644 "$REPO/README.md" "$PREFIX/README.md"
python3 -m venv --system-site-packages "$PREFIX/venv"
# Without the [vision] extra: OpenCV and numpy from pip would replace apt's and break picamera2.
# With the [onnxruntime] extra on a 64-bit Python: it runs the reader's networks 2-3 times faster. It has no wheel
# for a 32-bit Python, and then OpenCV runs them (the self-test says which).
if "$PREFIX/venv/bin/python" -c 'import struct, sys; sys.exit(struct.calcsize("P") != 8)'; then
    "$PREFIX/venv/bin/pip" install --quiet --upgrade "${REPO}[onnxruntime]" || {
        echo "   ONNX Runtime did not install: OpenCV runs the reader's networks instead, slower"
        "$PREFIX/venv/bin/pip" install --quiet --upgrade "$REPO"
    }
else
    echo "   a 32-bit Python: OpenCV runs the reader's networks (ONNX Runtime has no wheel for it)"
    "$PREFIX/venv/bin/pip" install --quiet --upgrade "$REPO"
fi
"$PREFIX/venv/bin/python" -c 'import cv2, numpy, picamera2' \
    || fail "the venv cannot import cv2, numpy and picamera2 from apt; check the apt step above"

echo "== config in $CONFIG_DIR"
install -d -m 755 "$CONFIG_DIR"
if [[ ! -e "$CONFIG_DIR/config.toml" ]]; then
    sed 's/^# hardware = "pi"/hardware = "pi"/' "$REPO/config.example.toml" > "$CONFIG_DIR/config.toml"
    chown root:"$SERVICE_USER" "$CONFIG_DIR/config.toml"
    chmod 640 "$CONFIG_DIR/config.toml"
    echo "   wrote $CONFIG_DIR/config.toml; edit the players and pins there"
else
    echo "   kept the existing $CONFIG_DIR/config.toml"
fi

echo "== service"
install -m 644 "$REPO/systemd/fantan-table.service" /etc/systemd/system/fantan-table.service
systemctl daemon-reload
systemctl enable fantan-table.service
systemctl restart fantan-table.service

echo "done: 'systemctl status fantan-table' shows it running; 'journalctl -u fantan-table -f' its log."
echo "To check the wiring, stop the service (it holds the pins), run the self-test as its user, and start it again:"
echo "  sudo systemctl stop fantan-table"
echo "  sudo -u $SERVICE_USER GPIOZERO_PIN_FACTORY=lgpio LG_WD=/var/lib/fantan-table \\"
echo "      $PREFIX/venv/bin/fantan-table selftest --config $CONFIG_DIR/config.toml"
echo "  sudo systemctl start fantan-table"
