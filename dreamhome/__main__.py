from dreamhome.cli import run

run()
