"""usage: check_html_dom.py REPORT.html THREADS STEPS [SCREENSHOT.png]

Loads crace's HTML report in headless Chromium and checks the DOM Chromium
built from it (--dump-dom): the verdict, the swim lanes (one column per
thread, one step per row, two racing steps), both accesses with their
source line marked, and the summary table. With SCREENSHOT, also renders
the page to a 1100x1000 PNG there."""
import html.parser
import shutil
import struct
import subprocess
import sys

report, threads, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if not chromium:
    sys.exit("check_html_dom.py: chromium is not installed")
base = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
        "--hide-scrollbars"]
dom = subprocess.run(base + ["--dump-dom", "file://" + report],
                     capture_output=True, text=True, timeout=120).stdout
if "<html" not in dom:
    sys.exit("chromium did not load the page")


class Walk(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.found = [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.stack.append((tag, a.get("class", "").split(), a.get("id")))
        self.found.append({"tag": tag, "classes": self.stack[-1][1],
                           "id": a.get("id"), "text": "",
                           "path": list(self.stack)})

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data):
        # The text of the innermost open element.
        for e in reversed(self.found):
            if e["path"][-1] in self.stack:
                e["text"] += data
                break


w = Walk()
w.feed(dom)


def els(tag, cls=None, inside=None):
    out = []
    for e in w.found:
        if e["tag"] != tag or (cls and cls not in e["classes"]):
            continue
        if inside and not any(inside in p[1] for p in e["path"][:-1]):
            continue
        out.append(e)
    return out


def fail(msg):
    sys.exit("check_html_dom.py: " + msg)


verdict = [e for e in w.found if e["id"] == "verdict"]
if not verdict or not verdict[0]["text"].strip():
    fail("no verdict")
lanes = els("th", "lane")
if len(lanes) != threads:
    fail(f"{len(lanes)} swim lanes, expected {threads}")
step_cells = els("td", "step")
if len(step_cells) != steps:
    fail(f"{len(step_cells)} steps, expected {steps}")
racing = els("td", "racing")
if len(racing) != 2:
    fail(f"{len(racing)} racing steps marked, expected 2")
for role in ("first", "second"):
    if not [e for e in els("div", role, inside="accesses")
            if "access" in e["classes"]]:
        fail(f"no {role} access")
marked = els("span", "hl")
if len(marked) < 2:
    fail(f"{len(marked)} marked source lines, expected one per access")
if not els("table", "summary"):
    fail("no summary table")
print(f"DOM OK: verdict {verdict[0]['text'].strip()}, {len(lanes)} lanes, "
      f"{len(step_cells)} steps, {len(racing)} racing, {len(marked)} marked lines")

if len(sys.argv) > 4:
    shot = sys.argv[4]
    subprocess.run(base + ["--window-size=1100,1000", "--screenshot=" + shot,
                           "file://" + report],
                   capture_output=True, timeout=120, check=True)
    with open(shot, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        fail("the screenshot is not a PNG")
    width, height = struct.unpack(">II", head[16:24])
    if (width, height) != (1100, 1000):
        fail(f"screenshot of {width}x{height}, expected 1100x1000")
    print(f"screenshot OK: {shot}")
