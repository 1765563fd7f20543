<html>
