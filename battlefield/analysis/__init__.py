"""Map and terrain testing: how much of a board each place sees, how far each side marches to
each objective, whether the layout is symmetric and fair, and the pictures and report that show
it (`battlefield analyze`). Uses geometry (and view for the pictures); knows no phases or dice.
"""
