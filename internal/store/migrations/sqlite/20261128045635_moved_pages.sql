-- Create "moved_pages" table
CREATE TABLE `moved_pages` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `path` text NOT NULL, `page_id` text NOT NULL, `moved_at` datetime NOT NULL, `space_id` text NOT NULL, CONSTRAINT `moved_pages_spaces_moved_pages` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE);
-- Create index "movedpage_space_id_path" to table: "moved_pages"
CREATE UNIQUE INDEX `movedpage_space_id_path` ON `moved_pages` (`space_id`, `path`);
