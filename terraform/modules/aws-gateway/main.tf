# Geçit on AWS: ECS Fargate behind an HTTPS Application Load Balancer, RDS PostgreSQL (private,
# TLS enforced, encrypted), Secrets Manager, and a task role that may only call
# bedrock:InvokeModel / bedrock:InvokeModelWithResponseStream (what Converse / ConverseStream
# need) on the model ARNs in var.bedrock_model_arns.
#
# Why Fargate and not Lambda + Lambda Web Adapter: a streamed chat completion can last minutes
# and holds a whole Lambda execution environment for its duration (one request per environment,
# billed while it waits on the model), responses stream only through function URLs, and Lambda
# freezes the process right after the response, so the usage ledger's off-path writes, the
# circuit-breaker state and live backend statistics would be lost or delayed. A Fargate task is a
# long-lived async process serving many streams at once, drains on SIGTERM (stopTimeout), and the
# ALB passes server-sent events through unbuffered.

data "aws_partition" "current" {}

data "aws_caller_identity" "current" {}

locals {
  partition  = data.aws_partition.current.partition
  account_id = data.aws_caller_identity.current.account_id
  log_group  = "/ecs/${var.name}-gateway"

  database_url = format(
    "postgresql+psycopg://%s:%s@%s:%d/%s?sslmode=require",
    aws_db_instance.gecit.username,
    random_password.database.result,
    aws_db_instance.gecit.address,
    aws_db_instance.gecit.port,
    aws_db_instance.gecit.db_name,
  )

  # ENV_NAME => secret ARN, injected by ECS at task start.
  secret_env = merge(
    {
      GECIT_DATABASE_URL = aws_secretsmanager_secret.database_url.arn
      GECIT_ADMIN_KEY    = aws_secretsmanager_secret.admin_key.arn
    },
    var.secret_env,
  )

  # The only actions the gateway's own identity (task role) may perform.
  bedrock_actions = [
    "bedrock:InvokeModel",
    "bedrock:InvokeModelWithResponseStream",
  ]
}

# --- encryption ---------------------------------------------------------------------------

# Key policy. In a key policy "Resource": "*" means this key only; the first statement is AWS's
# default that keeps the key manageable through IAM in this account.
data "aws_iam_policy_document" "kms" {
  #checkov:skip=CKV_AWS_109:Key policy: "*" is this key; account-root administration is the AWS default that lets IAM policies govern the key.
  #checkov:skip=CKV_AWS_111:Key policy: "*" is this key; account-root administration is the AWS default that lets IAM policies govern the key.
  #checkov:skip=CKV_AWS_356:Key policy: "*" is this key (key policies cannot name other resources).
  statement {
    sid       = "AccountAdministration"
    actions   = ["kms:*"]
    resources = ["*"]

    principals {
      type        = "AWS"
      identifiers = ["arn:${local.partition}:iam::${local.account_id}:root"]
    }
  }

  statement {
    sid = "CloudWatchLogs"
    actions = [
      "kms:Decrypt",
      "kms:DescribeKey",
      "kms:Encrypt",
      "kms:GenerateDataKey*",
      "kms:ReEncrypt*",
    ]
    resources = ["*"]

    principals {
      type        = "Service"
      identifiers = ["logs.${var.region}.amazonaws.com"]
    }

    condition {
      test     = "ArnEquals"
      variable = "kms:EncryptionContext:aws:logs:arn"
      values   = ["arn:${local.partition}:logs:${var.region}:${local.account_id}:log-group:${local.log_group}"]
    }
  }
}

resource "aws_kms_key" "gecit" {
  description             = "Geçit: RDS storage, Secrets Manager secrets and gateway logs"
  enable_key_rotation     = true
  deletion_window_in_days = 30
  policy                  = data.aws_iam_policy_document.kms.json
  tags                    = var.tags
}

resource "aws_kms_alias" "gecit" {
  name          = "alias/${var.name}"
  target_key_id = aws_kms_key.gecit.key_id
}

resource "aws_cloudwatch_log_group" "gateway" {
  name              = local.log_group
  retention_in_days = var.log_retention_days
  kms_key_id        = aws_kms_key.gecit.arn
  tags              = var.tags
}

# --- network ----------------------------------------------------------------------------------

resource "aws_security_group" "alb" {
  name        = "${var.name}-alb"
  description = "Gecit ALB: HTTPS from the allowed client ranges"
  vpc_id      = var.vpc_id
  tags        = var.tags
}

resource "aws_vpc_security_group_ingress_rule" "alb_https" {
  for_each = toset(var.alb_ingress_cidrs)

  security_group_id = aws_security_group.alb.id
  description       = "HTTPS from gateway clients"
  cidr_ipv4         = each.value
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
}

resource "aws_vpc_security_group_egress_rule" "alb_to_tasks" {
  security_group_id            = aws_security_group.alb.id
  description                  = "To the gateway tasks"
  referenced_security_group_id = aws_security_group.tasks.id
  ip_protocol                  = "tcp"
  from_port                    = 8080
  to_port                      = 8080
}

resource "aws_security_group" "tasks" {
  name        = "${var.name}-tasks"
  description = "Gecit gateway tasks: HTTP from the ALB only"
  vpc_id      = var.vpc_id
  tags        = var.tags
}

resource "aws_vpc_security_group_ingress_rule" "tasks_from_alb" {
  security_group_id            = aws_security_group.tasks.id
  description                  = "From the ALB"
  referenced_security_group_id = aws_security_group.alb.id
  ip_protocol                  = "tcp"
  from_port                    = 8080
  to_port                      = 8080
}

resource "aws_vpc_security_group_egress_rule" "tasks_https" {
  security_group_id = aws_security_group.tasks.id
  description       = "HTTPS to Bedrock, other model APIs, ECR, Secrets Manager and CloudWatch"
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
}

resource "aws_vpc_security_group_egress_rule" "tasks_to_db" {
  security_group_id            = aws_security_group.tasks.id
  description                  = "PostgreSQL"
  referenced_security_group_id = aws_security_group.db.id
  ip_protocol                  = "tcp"
  from_port                    = 5432
  to_port                      = 5432
}

resource "aws_vpc_security_group_egress_rule" "tasks_to_onprem" {
  for_each = { for pair in setproduct(var.onprem_cidrs, var.onprem_ports) : "${pair[0]}:${pair[1]}" => pair }

  security_group_id = aws_security_group.tasks.id
  description       = "On-prem inference node over VPN / Direct Connect"
  cidr_ipv4         = each.value[0]
  ip_protocol       = "tcp"
  from_port         = each.value[1]
  to_port           = each.value[1]
}

resource "aws_security_group" "db" {
  name        = "${var.name}-db"
  description = "Gecit RDS: PostgreSQL from the gateway tasks only"
  vpc_id      = var.vpc_id
  tags        = var.tags
}

# The database's only ingress: the tasks' security group. No CIDR block at all.
resource "aws_vpc_security_group_ingress_rule" "db_from_tasks" {
  security_group_id            = aws_security_group.db.id
  description                  = "PostgreSQL from the gateway tasks"
  referenced_security_group_id = aws_security_group.tasks.id
  ip_protocol                  = "tcp"
  from_port                    = 5432
  to_port                      = 5432
}

# --- database ----------------------------------------------------------------------------------

resource "aws_db_subnet_group" "gecit" {
  name       = "${var.name}-db"
  subnet_ids = var.private_subnet_ids
  tags       = var.tags
}

resource "aws_db_parameter_group" "gecit" {
  name   = "${var.name}-pg${var.db_engine_version}"
  family = "postgres${var.db_engine_version}"
  tags   = var.tags

  # Refuse connections without TLS.
  parameter {
    name  = "rds.force_ssl"
    value = "1"
  }
  parameter {
    name  = "log_connections"
    value = "1"
  }
  parameter {
    name  = "log_disconnections"
    value = "1"
  }
  # Never log statement text: it may carry personal data (KVKK).
  parameter {
    name  = "log_min_duration_statement"
    value = "-1"
  }
}

resource "random_password" "database" {
  length  = 40
  special = false
}

data "aws_iam_policy_document" "rds_monitoring_assume" {
  statement {
    actions = ["sts:AssumeRole"]

    principals {
      type        = "Service"
      identifiers = ["monitoring.rds.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "rds_monitoring" {
  name               = "${var.name}-rds-monitoring"
  assume_role_policy = data.aws_iam_policy_document.rds_monitoring_assume.json
  tags               = var.tags
}

resource "aws_iam_role_policy_attachment" "rds_monitoring" {
  role       = aws_iam_role.rds_monitoring.name
  policy_arn = "arn:${local.partition}:iam::aws:policy/service-role/AmazonRDSEnhancedMonitoringRole"
}

resource "aws_db_instance" "gecit" {
  identifier     = "${var.name}-pg"
  engine         = "postgres"
  engine_version = var.db_engine_version
  instance_class = var.db_instance_class

  db_name  = "gecit"
  username = "gecit"
  password = random_password.database.result
  port     = 5432

  allocated_storage     = var.db_allocated_storage
  max_allocated_storage = var.db_max_allocated_storage
  storage_type          = "gp3"
  storage_encrypted     = true
  kms_key_id            = aws_kms_key.gecit.arn

  db_subnet_group_name   = aws_db_subnet_group.gecit.name
  vpc_security_group_ids = [aws_security_group.db.id]
  parameter_group_name   = aws_db_parameter_group.gecit.name
  publicly_accessible    = false
  multi_az               = var.db_multi_az

  iam_database_authentication_enabled = true
  auto_minor_version_upgrade          = true
  backup_retention_period             = var.db_backup_retention_days
  copy_tags_to_snapshot               = true
  deletion_protection                 = var.deletion_protection
  skip_final_snapshot                 = false
  final_snapshot_identifier           = "${var.name}-pg-final"
  enabled_cloudwatch_logs_exports     = ["postgresql", "upgrade"]

  performance_insights_enabled    = true
  performance_insights_kms_key_id = aws_kms_key.gecit.arn
  monitoring_interval             = 60
  monitoring_role_arn             = aws_iam_role.rds_monitoring.arn

  tags = var.tags
}

# --- secrets ----------------------------------------------------------------------------------

resource "aws_secretsmanager_secret" "database_url" {
  #checkov:skip=CKV2_AWS_57:The URL embeds the RDS password; rotating it needs a rotation Lambda that rewrites the URL. Rotate by tainting random_password.database and applying (docs/deployment.md).
  name                    = "${var.name}/database-url"
  description             = "GECIT_DATABASE_URL for the gateway (PostgreSQL over TLS)"
  kms_key_id              = aws_kms_key.gecit.arn
  recovery_window_in_days = 7
  tags                    = var.tags
}

resource "aws_secretsmanager_secret_version" "database_url" {
  secret_id     = aws_secretsmanager_secret.database_url.id
  secret_string = local.database_url
}

resource "random_password" "admin_key" {
  length  = 48
  special = false
}

resource "aws_secretsmanager_secret" "admin_key" {
  #checkov:skip=CKV2_AWS_57:The admin key is a static bearer token read at start; rotate by tainting random_password.admin_key and redeploying.
  name                    = "${var.name}/admin-key"
  description             = "GECIT_ADMIN_KEY for the gateway's admin API"
  kms_key_id              = aws_kms_key.gecit.arn
  recovery_window_in_days = 7
  tags                    = var.tags
}

resource "aws_secretsmanager_secret_version" "admin_key" {
  secret_id     = aws_secretsmanager_secret.admin_key.id
  secret_string = random_password.admin_key.result
}

# --- IAM --------------------------------------------------------------------------------------

data "aws_iam_policy_document" "ecs_tasks_assume" {
  statement {
    actions = ["sts:AssumeRole"]

    principals {
      type        = "Service"
      identifiers = ["ecs-tasks.amazonaws.com"]
    }

    condition {
      test     = "StringEquals"
      variable = "aws:SourceAccount"
      values   = [local.account_id]
    }
  }
}

# Task role = the gateway's own identity: Bedrock invoke on the listed models, nothing else.
resource "aws_iam_role" "task" {
  name               = "${var.name}-gateway-task"
  description        = "Gecit gateway: Bedrock invoke on the listed models only"
  assume_role_policy = data.aws_iam_policy_document.ecs_tasks_assume.json
  tags               = var.tags
}

data "aws_iam_policy_document" "bedrock" {
  statement {
    sid       = "InvokeListedModels"
    actions   = local.bedrock_actions
    resources = var.bedrock_model_arns
  }
}

resource "aws_iam_role_policy" "task_bedrock" {
  name   = "bedrock-invoke"
  role   = aws_iam_role.task.id
  policy = data.aws_iam_policy_document.bedrock.json
}

# Execution role = what ECS itself needs to start the task: pull the image, write logs, read
# exactly the gateway's secrets.
resource "aws_iam_role" "execution" {
  name               = "${var.name}-gateway-execution"
  description        = "ECS agent for the Gecit gateway: image pull, logs, its own secrets"
  assume_role_policy = data.aws_iam_policy_document.ecs_tasks_assume.json
  tags               = var.tags
}

data "aws_iam_policy_document" "execution" {
  statement {
    sid       = "WriteLogs"
    actions   = ["logs:CreateLogStream", "logs:PutLogEvents"]
    resources = ["${aws_cloudwatch_log_group.gateway.arn}:*"]
  }

  statement {
    sid       = "ReadGatewaySecrets"
    actions   = ["secretsmanager:GetSecretValue"]
    resources = values(local.secret_env)
  }

  statement {
    sid       = "DecryptGatewaySecrets"
    actions   = ["kms:Decrypt"]
    resources = [aws_kms_key.gecit.arn]
  }

  dynamic "statement" {
    for_each = var.ecr_repository_arn == null ? [] : [var.ecr_repository_arn]
    content {
      sid       = "PullGatewayImage"
      actions   = ["ecr:BatchCheckLayerAvailability", "ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer"]
      resources = [statement.value]
    }
  }

  dynamic "statement" {
    for_each = var.ecr_repository_arn == null ? [] : ["*"]
    content {
      # GetAuthorizationToken has no resource-level permissions: AWS requires "*".
      sid       = "EcrLogin"
      actions   = ["ecr:GetAuthorizationToken"]
      resources = [statement.value]
    }
  }
}

resource "aws_iam_role_policy" "execution" {
  name   = "start-gateway-task"
  role   = aws_iam_role.execution.id
  policy = data.aws_iam_policy_document.execution.json
}

# --- load balancer ----------------------------------------------------------------------------

resource "aws_lb" "gateway" {
  #checkov:skip=CKV2_AWS_28:WAF is left to the operator: the default ALB is internal (VPC / VPN callers only); attach a web ACL when alb_internal is false.
  name                       = "${var.name}-alb"
  internal                   = var.alb_internal
  load_balancer_type         = "application"
  security_groups            = [aws_security_group.alb.id]
  subnets                    = var.alb_subnet_ids
  idle_timeout               = var.idle_timeout_seconds
  drop_invalid_header_fields = true
  enable_deletion_protection = var.deletion_protection
  tags                       = var.tags

  dynamic "access_logs" {
    for_each = var.alb_access_logs_bucket == null ? [] : [var.alb_access_logs_bucket]
    content {
      bucket  = access_logs.value
      prefix  = var.name
      enabled = true
    }
  }
}

resource "aws_lb_target_group" "gateway" {
  #checkov:skip=CKV_AWS_378:TLS ends at the ALB; the hop to the task stays inside private subnets guarded by security groups (ALB SG -> task SG on 8080 only).
  name                          = "${var.name}-gw"
  port                          = 8080
  protocol                      = "HTTP"
  target_type                   = "ip"
  vpc_id                        = var.vpc_id
  deregistration_delay          = var.stop_timeout_seconds
  load_balancing_algorithm_type = "least_outstanding_requests"
  tags                          = var.tags

  health_check {
    path                = "/readyz"
    matcher             = "200"
    interval            = 10
    timeout             = 5
    healthy_threshold   = 2
    unhealthy_threshold = 3
  }
}

resource "aws_lb_listener" "https" {
  load_balancer_arn = aws_lb.gateway.arn
  port              = 443
  protocol          = "HTTPS"
  ssl_policy        = "ELBSecurityPolicy-TLS13-1-2-2021-06"
  certificate_arn   = var.certificate_arn
  tags              = var.tags

  default_action {
    type             = "forward"
    target_group_arn = aws_lb_target_group.gateway.arn
  }
}

resource "aws_route53_record" "gateway" {
  count = var.route53_zone_id == null ? 0 : 1

  zone_id = var.route53_zone_id
  name    = var.domain_name
  type    = "A"

  alias {
    name                   = aws_lb.gateway.dns_name
    zone_id                = aws_lb.gateway.zone_id
    evaluate_target_health = true
  }
}

# --- ECS Fargate ------------------------------------------------------------------------------

resource "aws_ecs_cluster" "gecit" {
  name = var.name
  tags = var.tags

  setting {
    name  = "containerInsights"
    value = "enabled"
  }
}

resource "aws_ecs_task_definition" "gateway" {
  family                   = "${var.name}-gateway"
  requires_compatibilities = ["FARGATE"]
  network_mode             = "awsvpc"
  cpu                      = var.task_cpu
  memory                   = var.task_memory
  execution_role_arn       = aws_iam_role.execution.arn
  task_role_arn            = aws_iam_role.task.arn
  tags                     = var.tags

  runtime_platform {
    operating_system_family = "LINUX"
    cpu_architecture        = "X86_64"
  }

  volume {
    name = "data"
  }

  volume {
    name = "tmp"
  }

  container_definitions = jsonencode([
    {
      name                   = "gateway"
      image                  = var.image
      essential              = true
      command                = ["serve"]
      user                   = "10001:10001"
      readonlyRootFilesystem = true
      stopTimeout            = var.stop_timeout_seconds
      portMappings           = [{ containerPort = 8080, protocol = "tcp" }]
      linuxParameters        = { capabilities = { drop = ["ALL"] } }
      mountPoints = [
        { sourceVolume = "data", containerPath = "/data", readOnly = false },
        { sourceVolume = "tmp", containerPath = "/tmp", readOnly = false },
      ]
      environment = [
        { name = "GECIT_HOST", value = "0.0.0.0" },
        { name = "GECIT_PORT", value = "8080" },
        { name = "GECIT_REQUIRE_KEYS", value = "true" },
        { name = "GECIT_LOCAL_ENGINE", value = "false" },
        { name = "GECIT_JOURNAL_PATH", value = "/data/journal" },
        { name = "AWS_REGION", value = var.region },
      ]
      secrets = [for env_name, arn in local.secret_env : { name = env_name, valueFrom = arn }]
      healthCheck = {
        command     = ["CMD", "python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=2)"]
        interval    = 15
        timeout     = 3
        retries     = 3
        startPeriod = 30
      }
      logConfiguration = {
        logDriver = "awslogs"
        options = {
          awslogs-group         = aws_cloudwatch_log_group.gateway.name
          awslogs-region        = var.region
          awslogs-stream-prefix = "gateway"
        }
      }
    }
  ])
}

resource "aws_ecs_service" "gateway" {
  name                               = "${var.name}-gateway"
  cluster                            = aws_ecs_cluster.gecit.id
  task_definition                    = aws_ecs_task_definition.gateway.arn
  desired_count                      = var.desired_count
  launch_type                        = "FARGATE"
  platform_version                   = "LATEST"
  deployment_minimum_healthy_percent = 100
  deployment_maximum_percent         = 200
  health_check_grace_period_seconds  = 60
  enable_execute_command             = false
  propagate_tags                     = "SERVICE"
  tags                               = var.tags

  network_configuration {
    subnets          = var.private_subnet_ids
    security_groups  = [aws_security_group.tasks.id]
    assign_public_ip = false
  }

  load_balancer {
    target_group_arn = aws_lb_target_group.gateway.arn
    container_name   = "gateway"
    container_port   = 8080
  }

  deployment_circuit_breaker {
    enable   = true
    rollback = true
  }

  lifecycle {
    ignore_changes = [desired_count]
  }

  depends_on = [aws_lb_listener.https]
}

resource "aws_appautoscaling_target" "gateway" {
  service_namespace  = "ecs"
  resource_id        = "service/${aws_ecs_cluster.gecit.name}/${aws_ecs_service.gateway.name}"
  scalable_dimension = "ecs:service:DesiredCount"
  min_capacity       = var.min_count
  max_capacity       = var.max_count
}

resource "aws_appautoscaling_policy" "gateway_cpu" {
  name               = "${var.name}-gateway-cpu"
  policy_type        = "TargetTrackingScaling"
  service_namespace  = aws_appautoscaling_target.gateway.service_namespace
  resource_id        = aws_appautoscaling_target.gateway.resource_id
  scalable_dimension = aws_appautoscaling_target.gateway.scalable_dimension

  target_tracking_scaling_policy_configuration {
    target_value       = 60
    scale_in_cooldown  = 300
    scale_out_cooldown = 60

    predefined_metric_specification {
      predefined_metric_type = "ECSServiceAverageCPUUtilization"
    }
  }
}
