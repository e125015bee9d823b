"""What a view of the table draws, decided once: shapes, texts and palette keys in the table's
own inches, with no drawing library (no pygame, no SVG). The window (battlefield/view), the SVG
pages (battlefield/page) and the browser (page/static/depict.js) are three renderers of the same
depiction: the objectives, combat links, coherency rings, the ruleset's marks, a measurement,
every label with its place and leader line (one placer: depiction/labels.py), the legend's
entries, and everything a drag shows (the ruler, the reachable area, ghosts, rings, faults)."""
