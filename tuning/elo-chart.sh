#!/usr/bin/env bash
# Draws tuning/elo.svg from tuning/results.md: per round, the Elo of the tuned build against the
# build before it, with its 95% error bar, and the running total of the adopted rounds (a row
# whose Elo column says "not adopted" is drawn but not added).
# Usage: tuning/elo-chart.sh [results.md] [out.svg]
set -euo pipefail
cd "$(dirname "$0")/.."
in=${1:-tuning/results.md}
out=${2:-tuning/elo.svg}
# Rows look like: | round | ... | +27.9 ± 53.2 (LOS 85%) | bench |; the Elo column is the 7th.
grep -E '^\| [0-9]+ \|' "$in" |
  awk -F'|' '{
      split($8, f, " ");
      n++; round[n] = $2 + 0; elo[n] = f[1] + 0; err[n] = f[3] + 0
      adopted[n] = ($8 !~ /not adopted/)
    }
    END {
      if (n == 0) exit 1
      total = 0; lo = 0; hi = 0
      for (i = 1; i <= n; i++) {
        if (adopted[i]) total += elo[i]
        sum[i] = total
        if (elo[i] - err[i] < lo) lo = elo[i] - err[i]
        if (elo[i] + err[i] > hi) hi = elo[i] + err[i]
        if (sum[i] > hi) hi = sum[i]
      }
      lo = int(lo / 50 - 1) * 50; hi = int(hi / 50 + 1) * 50
      W = 640; H = 400; L = 60; R = 600; T = 50; B = 340
      printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">\n", W, H
      print "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>"
      print "<text x=\"60\" y=\"25\" font-family=\"sans-serif\" font-size=\"14\">Tuning rounds: Elo against the previous build (95% bars) and running total</text>"
      for (v = lo; v <= hi; v += 50) {
        y = B - (v - lo) * (B - T) / (hi - lo)
        printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>\n", L, y, R, y, v == 0 ? "black" : "#ddd"
        printf "<text x=\"%d\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"11\" text-anchor=\"end\">%+d</text>\n", L - 5, y + 4, v
      }
      step = (R - L) / n; pts = ""
      for (i = 1; i <= n; i++) {
        x = L + step * (i - 0.5)
        y0 = B - (0 - lo) * (B - T) / (hi - lo)
        y = B - (elo[i] - lo) * (B - T) / (hi - lo)
        top = y < y0 ? y : y0; h = y < y0 ? y0 - y : y - y0
        printf "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"steelblue\"/>\n", x - step / 4, top, step / 2, h
        ya = B - (elo[i] + err[i] - lo) * (B - T) / (hi - lo)
        yb = B - (elo[i] - err[i] - lo) * (B - T) / (hi - lo)
        printf "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", x, ya, x, yb
        printf "<text x=\"%.1f\" y=\"%d\" font-family=\"sans-serif\" font-size=\"11\" text-anchor=\"middle\">round %d: %+.1f</text>\n", x, B + 20, round[i], elo[i]
        pts = pts sprintf("%.1f,%.1f ", x, B - (sum[i] - lo) * (B - T) / (hi - lo))
      }
      printf "<polyline fill=\"none\" stroke=\"crimson\" stroke-width=\"2\" points=\"%s\"/>\n", pts
      printf "<text x=\"%d\" y=\"%d\" font-family=\"sans-serif\" font-size=\"11\" fill=\"crimson\" text-anchor=\"end\">running total %+.1f</text>\n", R, B + 45, total
      print "</svg>"
    }' > "$out"
echo "wrote $out" >&2
