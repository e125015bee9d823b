"""Armies from New Recruit and BattleScribe: rosters (.ros/.rosz) and BSData catalogues
(.cat/.gst) read safely and turned into the units of a scene."""
