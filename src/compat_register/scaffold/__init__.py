"""A new register project. Takes a name and a date; gives every file `register init` writes."""
