"""droidsim eval: measure how well an agent uses AppFunctions, on a live simulated device.

Suites are data (suite.py), every case runs against a freshly reset device
(devices.py) with the agent runtime (runner.py), is scored BFCL-style plus
state checks (scoring.py), and the run is written as results.jsonl,
summary.json and report.html (results.py, summary.py, report.py). See docs/eval.md.
"""
