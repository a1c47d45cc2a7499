from dreamhome.launch import run

run()
