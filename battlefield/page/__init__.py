"""The battlefield as web pages: the scene drawn as SVG with inches as its units (svg), a ruling
as one self-contained HTML page (ruling), and a game's versions in a page that steps through
them (replay). No pygame here: the pages draw the same picture as battlefield.view's PNG with
the browser doing the drawing."""
