-- The access epoch: a counter that every change to what a token's viewer
-- statement reads about its user (memberships, grants, team memberships, and
-- the webhook endpoints and installations that say whether an organization
-- has somewhere to deliver) moves forward, in the transaction that makes the
-- change. A server keeps a user's facts with the epoch they were read at and
-- reuses them while the epoch read with the token is the same (see
-- graph.viewerCache). Triggers, not application code, so that no path that
-- writes these tables (a cascade, a restore, an operator's SQL) can forget.

CREATE TABLE `access_epoch` (`id` integer NOT NULL PRIMARY KEY CHECK (`id` = 1), `epoch` integer NOT NULL);
INSERT INTO `access_epoch` (`id`, `epoch`) VALUES (1, 0);
-- members: a row added or removed, or one of organization_id, user_id, role, disabled changed
CREATE TRIGGER `members_access_epoch_insert` AFTER INSERT ON `members` BEGIN UPDATE `access_epoch` SET `epoch` = `epoch` + 1; END;
CREATE TRIGGER `members_access_epoch_delete` AFTER DELETE ON `members` BEGIN UPDATE `access_epoch` SET `epoch` = `epoch` + 1; END;
CREATE TRIGGER `members_access_epoch_update` AFTER UPDATE ON `members` WHEN OLD.`organization_id` IS NOT NEW.`organization_id` OR OLD.`user_id` IS NOT NEW.`user_id` OR OLD.`role` IS NOT NEW.`role` OR OLD.`disabled` IS NOT NEW.`disabled` BEGIN UPDATE `access_epoch` SET `epoch` = `epoch` + 1; END;
-- content_grants: a row added or removed, or one of user_id, team_id, collection_id, space_id, role changed
CREATE TRIGGER `content_grants_access_epoch_insert` AFTER INSERT ON `content_grants` BEGIN UPDATE `access_epoch` SET `epoch` = `epoch` + 1; END;
CREATE TRIGGER `content_grants_access_epoch_delete` AFTER DELETE ON `content_grants` BEGIN UPDATE `access_epoch` SET `epoch` = `epoch` + 1; END;
CREATE TRIGGER `content_grants_access_epoch_update` AFTER UPDATE ON `content_grants` WHEN OLD.`user_id` IS NOT NEW.`user_id` OR OLD.`team_id` IS NOT NEW.`team_id` OR OLD.`collection_id` IS NOT NEW.`collection_id` OR OLD.`space_id` IS NOT NEW.`space_id` OR OLD.`role` IS NOT NEW.`role` BEGIN UPDATE `access_epoch` SET `epoch` = `epoch` + 1; END;
-- team_members: a row added or removed, or one of team_id, user_id changed
CREATE TRIGGER `team_members_access_epoch_insert` AFTER INSERT ON `team_members` BEGIN UPDATE `access_epoch` SET `epoch` = `epoch` + 1; END;
CREATE TRIGGER `team_members_access_epoch_delete` AFTER DELETE ON `team_members` BEGIN UPDATE `access_epoch` SET `epoch` = `epoch` + 1; END;
CREATE TRIGGER `team_members_access_epoch_update` AFTER UPDATE ON `team_members` WHEN OLD.`team_id` IS NOT NEW.`team_id` OR OLD.`user_id` IS NOT NEW.`user_id` BEGIN UPDATE `access_epoch` SET `epoch` = `epoch` + 1; END;
-- webhook_endpoints: a row added or removed, or one of organization_id, integration_id, active changed
CREATE TRIGGER `webhook_endpoints_access_epoch_insert` AFTER INSERT ON `webhook_endpoints` BEGIN UPDATE `access_epoch` SET `epoch` = `epoch` + 1; END;
CREATE TRIGGER `webhook_endpoints_access_epoch_delete` AFTER DELETE ON `webhook_endpoints` BEGIN UPDATE `access_epoch` SET `epoch` = `epoch` + 1; END;
CREATE TRIGGER `webhook_endpoints_access_epoch_update` AFTER UPDATE ON `webhook_endpoints` WHEN OLD.`organization_id` IS NOT NEW.`organization_id` OR OLD.`integration_id` IS NOT NEW.`integration_id` OR OLD.`active` IS NOT NEW.`active` BEGIN UPDATE `access_epoch` SET `epoch` = `epoch` + 1; END;
-- integration_installations: a row added or removed, or one of organization_id, integration_id, status changed
CREATE TRIGGER `integration_installations_access_epoch_insert` AFTER INSERT ON `integration_installations` BEGIN UPDATE `access_epoch` SET `epoch` = `epoch` + 1; END;
CREATE TRIGGER `integration_installations_access_epoch_delete` AFTER DELETE ON `integration_installations` BEGIN UPDATE `access_epoch` SET `epoch` = `epoch` + 1; END;
CREATE TRIGGER `integration_installations_access_epoch_update` AFTER UPDATE ON `integration_installations` WHEN OLD.`organization_id` IS NOT NEW.`organization_id` OR OLD.`integration_id` IS NOT NEW.`integration_id` OR OLD.`status` IS NOT NEW.`status` BEGIN UPDATE `access_epoch` SET `epoch` = `epoch` + 1; END;
