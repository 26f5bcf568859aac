-- AlterTable
ALTER TABLE "Experiment" ADD COLUMN     "decidedAt" TIMESTAMPTZ(3),
ADD COLUMN     "decidedBy" VARCHAR(120),
ADD COLUMN     "decision" VARCHAR(20),
ADD COLUMN     "decisionNote" VARCHAR(2000) NOT NULL DEFAULT '',
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "ExperimentVariant" ADD COLUMN     "qualitySumSquares" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Optimization" ADD COLUMN     "createdBy" VARCHAR(120) NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "ExperimentUpload" (
    "id" UUID NOT NULL,
    "experimentId" UUID NOT NULL,
    "source" VARCHAR(20) NOT NULL,
    "accepted" INTEGER NOT NULL,
    "rejected" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" VARCHAR(120) NOT NULL,

    CONSTRAINT "ExperimentUpload_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ExperimentUpload_experimentId_createdAt_idx" ON "ExperimentUpload"("experimentId", "createdAt");

-- AddForeignKey
ALTER TABLE "ExperimentUpload" ADD CONSTRAINT "ExperimentUpload_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
