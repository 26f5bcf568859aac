-- AlterTable
ALTER TABLE "Slo" ADD COLUMN     "budgetingMethod" VARCHAR(20) NOT NULL DEFAULT 'occurrences',
ADD COLUMN     "calendarUnit" VARCHAR(10),
ADD COLUMN     "timeZone" VARCHAR(64) NOT NULL DEFAULT 'UTC',
ADD COLUMN     "timesliceMinutes" INTEGER,
ADD COLUMN     "timesliceTarget" DOUBLE PRECISION,
ADD COLUMN     "windowKind" VARCHAR(20) NOT NULL DEFAULT 'rolling';

-- CreateTable
CREATE TABLE "AlertNotification" (
    "id" UUID NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "serviceId" UUID,
    "status" VARCHAR(20) NOT NULL,
    "alertname" VARCHAR(200) NOT NULL,
    "severity" VARCHAR(40) NOT NULL DEFAULT '',
    "fingerprint" VARCHAR(64) NOT NULL DEFAULT '',
    "startsAt" TIMESTAMPTZ(3) NOT NULL,
    "endsAt" TIMESTAMPTZ(3),
    "labels" JSONB NOT NULL,
    "annotations" JSONB NOT NULL,
    "receiver" VARCHAR(200) NOT NULL DEFAULT '',

    CONSTRAINT "AlertNotification_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AlertNotification_receivedAt_idx" ON "AlertNotification"("receivedAt");

-- CreateIndex
CREATE INDEX "AlertNotification_serviceId_receivedAt_idx" ON "AlertNotification"("serviceId", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "AlertNotification_fingerprint_status_startsAt_key" ON "AlertNotification"("fingerprint", "status", "startsAt");

-- AddForeignKey
ALTER TABLE "AlertNotification" ADD CONSTRAINT "AlertNotification_serviceId_fkey" FOREIGN KEY ("serviceId") REFERENCES "Service"("id") ON DELETE CASCADE ON UPDATE CASCADE;
