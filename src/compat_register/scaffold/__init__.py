"""A new register project: the files `register init` writes.

Takes a project name and a date; gives every file of a working project as text, by path
(`project.files`). Writing them is `api.init`'s part.
"""
