"""What the face shows: embed text, the table image, the score chart, the Anniversary wording."""
