-- The rule groups left out of the shared rule file, and why: one service's broken rules never
-- keep every other service's from loading.
-- AlterTable
ALTER TABLE "RuleFileSync" ADD COLUMN     "leftOut" JSONB NOT NULL DEFAULT '[]';
