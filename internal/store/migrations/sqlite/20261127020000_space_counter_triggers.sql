-- The counters of a space (see the Space schema): triggers keep them in the
-- transaction of every change to a change request (all, open, draft) or to a
-- comment on the space itself (open, and not on a change request), so that a
-- space's row holds them. They used to be correlated counts computed at
-- every read of a space that showed them. The rows that exist are counted
-- once here.

UPDATE `spaces` SET
  `cr_count` = (SELECT COUNT(*) FROM `change_requests` AS `n` WHERE `n`.`space_id` = `spaces`.`id`),
  `cr_open_count` = (SELECT COUNT(*) FROM `change_requests` AS `n` WHERE `n`.`space_id` = `spaces`.`id` AND `n`.`status` = 'open'),
  `cr_draft_count` = (SELECT COUNT(*) FROM `change_requests` AS `n` WHERE `n`.`space_id` = `spaces`.`id` AND `n`.`status` = 'draft'),
  `comment_open_count` = (SELECT COUNT(*) FROM `comments` AS `n` WHERE `n`.`space_id` = `spaces`.`id` AND `n`.`change_request_id` IS NULL AND `n`.`status` = 'open');
CREATE TRIGGER `change_requests_space_counters_insert` AFTER INSERT ON `change_requests` BEGIN UPDATE `spaces` SET `cr_count` = `cr_count` + 1, `cr_open_count` = `cr_open_count` + (NEW.`status` = 'open'), `cr_draft_count` = `cr_draft_count` + (NEW.`status` = 'draft') WHERE `id` = NEW.`space_id`; END;
CREATE TRIGGER `change_requests_space_counters_delete` AFTER DELETE ON `change_requests` BEGIN UPDATE `spaces` SET `cr_count` = `cr_count` - 1, `cr_open_count` = `cr_open_count` - (OLD.`status` = 'open'), `cr_draft_count` = `cr_draft_count` - (OLD.`status` = 'draft') WHERE `id` = OLD.`space_id`; END;
CREATE TRIGGER `change_requests_space_counters_update` AFTER UPDATE ON `change_requests` WHEN OLD.`space_id` IS NOT NEW.`space_id` OR OLD.`status` IS NOT NEW.`status` BEGIN UPDATE `spaces` SET `cr_count` = `cr_count` - 1, `cr_open_count` = `cr_open_count` - (OLD.`status` = 'open'), `cr_draft_count` = `cr_draft_count` - (OLD.`status` = 'draft') WHERE `id` = OLD.`space_id`; UPDATE `spaces` SET `cr_count` = `cr_count` + 1, `cr_open_count` = `cr_open_count` + (NEW.`status` = 'open'), `cr_draft_count` = `cr_draft_count` + (NEW.`status` = 'draft') WHERE `id` = NEW.`space_id`; END;
CREATE TRIGGER `comments_space_counters_insert` AFTER INSERT ON `comments` BEGIN UPDATE `spaces` SET `comment_open_count` = `comment_open_count` + (NEW.`change_request_id` IS NULL AND NEW.`status` = 'open') WHERE `id` = NEW.`space_id`; END;
CREATE TRIGGER `comments_space_counters_delete` AFTER DELETE ON `comments` BEGIN UPDATE `spaces` SET `comment_open_count` = `comment_open_count` - (OLD.`change_request_id` IS NULL AND OLD.`status` = 'open') WHERE `id` = OLD.`space_id`; END;
CREATE TRIGGER `comments_space_counters_update` AFTER UPDATE ON `comments` WHEN OLD.`space_id` IS NOT NEW.`space_id` OR OLD.`status` IS NOT NEW.`status` OR OLD.`change_request_id` IS NOT NEW.`change_request_id` BEGIN UPDATE `spaces` SET `comment_open_count` = `comment_open_count` - (OLD.`change_request_id` IS NULL AND OLD.`status` = 'open') WHERE `id` = OLD.`space_id`; UPDATE `spaces` SET `comment_open_count` = `comment_open_count` + (NEW.`change_request_id` IS NULL AND NEW.`status` = 'open') WHERE `id` = NEW.`space_id`; END;
